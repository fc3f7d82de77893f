// An accordion where one item is open at a time; clicking the open item closes it (product §11.1: FAQ).
import { useId, useState } from "react";

/** items: [{question, answer}]; headings are h{level}, each holding the button that toggles it. */
export function Accordion({ items, level = 2 }) {
  const [open, setOpen] = useState(null);
  const id = useId();
  const Heading = `h${level}`;
  return (
    <div className="accordion">
      {items.map((item, index) => {
        const expanded = open === index;
        return (
          <div key={item.question} className={`accordion__item ${expanded ? "accordion__item--open" : ""}`}>
            <Heading className="accordion__heading">
              <button type="button" id={`${id}-button-${index}`} className="accordion__button"
                      aria-expanded={expanded} aria-controls={`${id}-panel-${index}`}
                      onClick={() => setOpen(expanded ? null : index)}>
                <span>{item.question}</span>
                <span className="accordion__icon" aria-hidden="true" />
              </button>
            </Heading>
            <div id={`${id}-panel-${index}`} role="region" aria-labelledby={`${id}-button-${index}`}
                 className="accordion__panel" hidden={!expanded}>
              {item.answer}
            </div>
          </div>
        );
      })}
    </div>
  );
}
