// Renders formulas and code with the tools sites use, for make_pages.py: a JSON list of
// requests on stdin ({"tool": "katex" | "mathjax3" | "mathjax3-svg" | "hljs" | "hljs-ln" | "prism" | "shiki",
// "src", "display"
// or "lang"}), the JSON list of their HTML on stdout, then the tools' versions on stderr.
// The tools come from npm, installed outside the repository:
//   npm install --prefix /tmp/fidelity-tools katex mathjax-full highlight.js prismjs shiki \
//     highlightjs-line-numbers.js jsdom
//   NODE_PATH=/tmp/fidelity-tools/node_modules node render.mjs < requests.json
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(path.join(process.env.NODE_PATH || ".", "x.js"));
const version = (name) => require(`${name}/package.json`).version;

const katex = require("katex");
const hljs = require("highlight.js");
const Prism = require("prismjs");
require("prismjs/components/index.js")(["python", "bash", "rust", "sql", "json"]);

const { mathjax } = require("mathjax-full/js/mathjax.js");
const { TeX } = require("mathjax-full/js/input/tex.js");
const { CHTML } = require("mathjax-full/js/output/chtml.js");
const { SVG } = require("mathjax-full/js/output/svg.js");
const { liteAdaptor } = require("mathjax-full/js/adaptors/liteAdaptor.js");
const { RegisterHTMLHandler } = require("mathjax-full/js/handlers/html.js");
const { AssistiveMmlHandler } = require("mathjax-full/js/a11y/assistive-mml.js");
const { AllPackages } = require("mathjax-full/js/input/tex/AllPackages.js");

// shiki is an ES module only: imported from the same prefix
const shiki = await import(pathToFileURL(path.join(process.env.NODE_PATH || ".", "shiki", "dist", "index.mjs")));
const shikiHighlighter = await shiki.createHighlighter({ themes: ["github-light"], langs: ["typescript"] });

const adaptor = liteAdaptor();
AssistiveMmlHandler(RegisterHTMLHandler(adaptor));
const mjDocument = mathjax.document("", {
  InputJax: new TeX({ packages: AllPackages }),
  OutputJax: new CHTML({ fontURL: "https://cdn.jsdelivr.net/npm/mathjax@3/es5/output/chtml/fonts/woff-v2" }),
});
const mjSvgDocument = mathjax.document("", {
  InputJax: new TeX({ packages: AllPackages }),
  OutputJax: new SVG({ fontCache: "none" }),
});

// highlightjs-line-numbers.js is a browser script: run it in a jsdom window beside hljs
const { JSDOM } = require("jsdom");
const browser = new JSDOM("<!DOCTYPE html><head></head>", { runScripts: "outside-only" }).window;
browser.hljs = hljs;
browser.eval(readFileSync(require.resolve("highlightjs-line-numbers.js/src/highlightjs-line-numbers.js"), "utf8"));

const tools = {
  katex: (r) => katex.renderToString(r.src, { displayMode: !!r.display, output: "htmlAndMathml" }),
  mathjax3: (r) => adaptor.outerHTML(mjDocument.convert(r.src, { display: !!r.display })),
  "mathjax3-svg": (r) => adaptor.outerHTML(mjSvgDocument.convert(r.src, { display: !!r.display })),
  hljs: (r) => hljs.highlight(r.src, { language: r.lang }).value,
  "hljs-ln": (r) => browser.hljs.lineNumbersValue(hljs.highlight(r.src, { language: r.lang }).value),
  prism: (r) => Prism.highlight(r.src, Prism.languages[r.lang], r.lang),
  shiki: (r) => shikiHighlighter.codeToHtml(r.src, { lang: r.lang, theme: "github-light" }),
};

const requests = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(requests.map((r) => tools[r.tool](r))));
process.stderr.write(JSON.stringify({ katex: version("katex"), "mathjax-full": version("mathjax-full"),
  "highlight.js": version("highlight.js"), prismjs: version("prismjs"), shiki: version("shiki"),
  "highlightjs-line-numbers.js": version("highlightjs-line-numbers.js"), jsdom: version("jsdom") }));
