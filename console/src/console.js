// The GraphQL console served at GET /graphql (api/static/console.html loads the bundle of this file).
// The query editor knows the service's schema (cm6-graphql: highlighting, completion, errors underlined),
// read from the service's own SDL; the variables editor is JSON. Built by `npm run build` in console/
// into api/static/console.js: everything the page runs is served by the service itself.
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { json } from "@codemirror/lang-json";
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { lintGutter } from "@codemirror/lint";
import { EditorState, Prec } from "@codemirror/state";
import { EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";
import { graphql, updateSchema } from "cm6-graphql";
import { buildSchema } from "graphql";

// The endpoint is this page's own URL: GET serves the console, POST runs queries.
const endpoint = window.location.pathname;
const resultBox = document.getElementById("result");

function editor(parent, doc, language) {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        bracketMatching(),
        closeBrackets(),
        autocompletion(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => (run(), true) }])),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, indentWithTab]),
        language,
      ],
    }),
  });
}

function setText(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

const queryEditor = editor(document.getElementById("query"), "", [graphql(), lintGutter()]);
const variablesEditor = editor(document.getElementById("variables"), "{}", json());

async function run() {
  let variables;
  try {
    const raw = variablesEditor.state.doc.toString().trim();
    variables = raw ? JSON.parse(raw) : {};
  } catch (error) {
    resultBox.textContent = `Variables are not valid JSON: ${error.message}`;
    return;
  }
  resultBox.textContent = "running…";
  try {
    const response = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query: queryEditor.state.doc.toString(), variables }),
    });
    const text = await response.text();
    try {
      resultBox.textContent = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      resultBox.textContent = `HTTP ${response.status}\n${text}`;
    }
  } catch (error) {
    resultBox.textContent = `Request failed: ${error.message}`;
  }
}

function show(query, variables) {
  setText(queryEditor, query);
  setText(variablesEditor, JSON.stringify(variables, null, 2));
  resultBox.textContent = "";
}

function button(className, label, title, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.textContent = label;
  element.title = title;
  element.addEventListener("click", onClick);
  return element;
}

// A starting query for a root field: its required arguments as variables (null until filled in), and
// its __typename.
function template(field) {
  const required = field.args.filter((arg) => String(arg.type).endsWith("!"));
  const declared = required.map((arg) => `$${arg.name}: ${arg.type}`).join(", ");
  const passed = required.map((arg) => `${arg.name}: $${arg.name}`).join(", ");
  return {
    query: `query${declared ? `(${declared})` : ""} {\n  ${field.name}${passed ? `(${passed})` : ""} {\n    __typename\n  }\n}`,
    variables: Object.fromEntries(required.map((arg) => [arg.name, null])),
  };
}

// Runnable examples per game, made by the service from a real deal (api/examples.py), in the page.
function listExamples() {
  const examples = JSON.parse(document.getElementById("examples").textContent);
  const box = document.getElementById("example-list");
  for (const example of examples) {
    box.appendChild(
      button("example", example.title, example.description, () => show(example.query, example.variables)),
    );
  }
  if (examples.length) show(examples[0].query, examples[0].variables);
}

async function loadSchema() {
  const box = document.getElementById("fields");
  try {
    const response = await fetch(`${endpoint}/schema.graphql`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const schema = buildSchema(await response.text());
    updateSchema(queryEditor, schema);
    box.textContent = "";
    for (const field of Object.values(schema.getQueryType().getFields())) {
      box.appendChild(
        button("root-field", field.name, field.description || "", () => {
          const { query, variables } = template(field);
          show(query, variables);
        }),
      );
    }
    document.body.dataset.schema = "loaded";
  } catch (error) {
    box.textContent = `The schema could not be loaded: ${error.message}`;
  }
}

document.getElementById("run").addEventListener("click", run);
listExamples();
loadSchema();
