// ESLint for the client (flat config; `npm run lint`, and tests/test_client_lint.py in the suite).
//
// The import boundaries follow bulletproof-react's unidirectional architecture
// (docs/architecture.md, "The client"): shared code (components/, config/, lib/) imports no feature
// and nothing of app/; a feature imports no other feature and nothing of app/; only app/ composes
// features. Every folder under client/src/features is a feature, so a new one is covered at once.
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import importPlugin from "eslint-plugin-import";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

const SRC = "./client/src";
const FEATURES = readdirSync(new URL("./client/src/features/", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const boundaries = [
  // A feature is composed with others in app/, never inside another feature.
  ...FEATURES.map((feature) => ({
    target: `${SRC}/features/${feature}`,
    from: `${SRC}/features`,
    except: [`./${feature}`],
    message: "A feature imports no other feature: compose them in client/src/app.",
  })),
  {
    target: `${SRC}/features`,
    from: `${SRC}/app`,
    message: "Features never import the app layer; the app imports them.",
  },
  {
    target: [`${SRC}/components`, `${SRC}/config`, `${SRC}/lib`],
    from: [`${SRC}/features`, `${SRC}/app`],
    message: "Shared code (components, config, lib) imports no feature and nothing of app/.",
  },
];

export default [
  { ignores: ["bookstore/static/dist/", "node_modules/", ".venv/", "instance/", "test-artifacts/", "bench/.data/"] },
  {
    files: ["client/**/*.{js,jsx,mjs}", "eslint.config.js"],
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      parserOptions: { ecmaFeatures: { jsx: true } },
      globals: globals.browser,
    },
    plugins: { import: importPlugin, react, "react-hooks": reactHooks },
    settings: {
      "import/resolver": { node: { extensions: [".js", ".jsx"] } },
      "import/extensions": [".js", ".jsx"],
    },
    rules: {
      ...js.configs.recommended.rules,
      ...reactHooks.configs["recommended-latest"].rules,
      // `const { confirmPassword, ...body } = fields` leaves a field out on purpose.
      "no-unused-vars": ["error", { ignoreRestSiblings: true }],
      "import/no-restricted-paths": ["error", { zones: boundaries }],
      "import/no-cycle": ["error", { ignoreExternal: true }],
      // The node resolver reads no package "exports" map: wouter's subpath imports resolve only through it.
      "import/no-unresolved": ["error", { ignore: ["\\?url$", "^wouter/"] }],
      // ESLint 9 does not see a component used only in JSX as used; this rule tells it.
      "react/jsx-uses-vars": "error",
      "react/jsx-no-undef": "error",
      "react/jsx-key": "error",
      "react-hooks/exhaustive-deps": "error",
      "react-hooks/incompatible-library": "error",
      "react-hooks/unsupported-syntax": "error",
      // The React Compiler's rules: state that follows a prop or the address is reset while rendering
      // (lib/use-resetting-state.js), refs are written in layout effects and read in handlers and effects only.
      "react-hooks/set-state-in-effect": "error",
      "react-hooks/refs": "error",
      "react-hooks/use-memo": "error",
    },
  },
  {
    // Node's test runner and the build script run in Node, not the browser.
    files: ["client/src/**/*.test.js", "client/build.mjs", "eslint.config.js"],
    languageOptions: { globals: globals.node },
  },
];
