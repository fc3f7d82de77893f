// The sign-in dialog opened from the header or a guarded action: login and register in one.
import { useEffect, useRef, useState } from "react";
import { Modal } from "../../../components/ui/modal.jsx";
import { useAuth } from "../auth-context.jsx";
import { LoginForm } from "./login-form.jsx";
import { RegisterForm } from "./register-form.jsx";
import { GoogleSignIn } from "./google-sign-in.jsx";

export function AuthModal() {
  const { modalMode, openAuthModal, closeAuthModal } = useAuth();
  // Bumped by the toggle so the other form starts empty, without messages (product §2.3).
  const [formKey, setFormKey] = useState(0);
  const isLogin = modalMode !== "register";
  const body = useRef(null);

  // showModal() focuses the close button; the shopper wants to type, so start in the first field.
  useEffect(() => {
    body.current?.querySelector("input")?.focus();
  }, [modalMode, formKey]);

  function toggle() {
    setFormKey((key) => key + 1);
    openAuthModal(isLogin ? "register" : "login");
  }

  return (
    <Modal open={Boolean(modalMode)} onClose={closeAuthModal} titleId="auth-modal-title" className="auth-modal">
      <div ref={body}>
        <h2 id="auth-modal-title">{isLogin ? "Login" : "Create Account"}</h2>
        {isLogin
          ? <LoginForm key={`login-${formKey}`} onDone={closeAuthModal} onLeave={closeAuthModal} delayMs={1000} />
          : <RegisterForm key={`register-${formKey}`} onDone={closeAuthModal} delayMs={2000} />}
        <GoogleSignIn />
        <p className="auth-modal__toggle">
          {isLogin ? "Don't have an account? " : "Already have an account? "}
          <button type="button" className="link-button" onClick={toggle}>
            {isLogin ? "Sign Up" : "Login"}
          </button>
        </p>
      </div>
    </Modal>
  );
}
