"""The generated pages' articles, written once: make_pages.py renders each into a page and
writes its gold.  Text written for this set (CC0); the formulas are textbook ones."""

from __future__ import annotations

from make_pages import Article, Code, F, Table

P = "p"

KATEX = Article("f-katex", "Euler's formula and the complex exponential", "katex", "plain", "blog", (
    (P, ["Few identities are quoted as often as Euler's. For any real number ", F("x"),
         " the complex exponential satisfies ", F(r"e^{ix} = \cos x + i\sin x"),
         ", which ties the exponential function to the trigonometric ones."]),
    (P, ["Setting ", F(r"x = \pi"), " gives the identity that appears on mugs and T-shirts:"]),
    F(r"e^{i\pi} + 1 = 0"),
    (P, ["The proof most textbooks give compares the power series of both sides. Writing the exponential "
         "as a series and splitting the even and odd terms yields"]),
    F(r"e^{ix} = \sum_{n=0}^{\infty} \frac{(ix)^n}{n!} = \sum_{k=0}^{\infty} \frac{(-1)^k x^{2k}}{(2k)!}"
      r" + i \sum_{k=0}^{\infty} \frac{(-1)^k x^{2k+1}}{(2k+1)!}"),
    (P, ["The two sums on the right are the series of the cosine and the sine, so the formula follows. "
         "A useful consequence is that every complex number can be written in polar form as ",
         F(r"z = r e^{i\theta}"), ", where ", F("r = |z|"), " is its modulus and ", F(r"\theta"),
         " its argument."]),
    (P, ["Multiplying two numbers in polar form multiplies their moduli and adds their arguments, which is "
         "why rotations in the plane are so easy to express with complex numbers."]),
))

MATHJAX3 = Article("f-mathjax3", "The normal distribution in five formulas", "mathjax3", "plain", "news", (
    (P, ["The normal distribution is the workhorse of statistics. A random variable ", F("X"),
         " with mean ", F(r"\mu"), " and standard deviation ", F(r"\sigma"), " has the density"]),
    F(r"f(x) = \frac{1}{\sigma\sqrt{2\pi}} \exp\left(-\frac{(x-\mu)^2}{2\sigma^2}\right)"),
    (P, ["Standardising the variable with ", F(r"Z = \frac{X - \mu}{\sigma}"),
         " brings every normal distribution back to the standard one, whose tables fill the back pages of "
         "old textbooks."]),
    (P, ["About 68 percent of the mass lies within one standard deviation of the mean, and the familiar "
         "95 percent interval is"]),
    F(r"P(\mu - 1.96\sigma \le X \le \mu + 1.96\sigma) \approx 0.95"),
    (P, ["When independent variables are added, their means and variances add: if ",
         F(r"X_1 \sim N(\mu_1, \sigma_1^2)"), " and ", F(r"X_2 \sim N(\mu_2, \sigma_2^2)"), " then"]),
    F(r"X_1 + X_2 \sim N(\mu_1 + \mu_2, \sigma_1^2 + \sigma_2^2)"),
    (P, ["This stability under addition is one reason the distribution appears whenever many small "
         "effects pile up."]),
))

MATHJAX2 = Article("f-mathjax2", "Gradient descent, step by step", "mathjax2", "plain", "blog", (
    (P, ["Gradient descent minimises a differentiable function by walking against its gradient. Starting "
         "from a point ", F(r"\theta_0"), ", each step moves a little downhill:"]),
    F(r"\theta_{t+1} = \theta_t - \eta \nabla L(\theta_t)"),
    (P, ["Here ", F(r"\eta"), " is the learning rate and ", F("L"),
         " the loss. For a least-squares problem the loss is"]),
    F(r"L(\theta) = \frac{1}{2n} \sum_{i=1}^{n} (x_i^\top \theta - y_i)^2"),
    (P, ["and its gradient is ", F(r"\nabla L(\theta) = \frac{1}{n} X^\top (X\theta - y)"),
         ". If the learning rate is too large the iterates oscillate and diverge; if it is too small, "
         "progress is painfully slow."]),
    (P, ["For a convex function with an ", F("L"), "-Lipschitz gradient, a step size of ", F(r"\eta = 1/L"),
         " guarantees that the loss decreases at every step."]),
))

MATHML = Article("f-mathml", "Uniformly accelerated motion", "mathml", "plain", "docs", (
    (P, ["An object that starts with velocity ", F("v_0"), " and accelerates uniformly at ", F("a"),
         " has, after a time ", F("t"), ", the velocity ", F("v = v_0 + a t"), "."]),
    (P, ["Integrating once more gives the distance travelled:"]),
    F(r"s = v_0 t + \frac{1}{2} a t^2"),
    (P, ["Eliminating the time between the two equations gives a relation that is handy when the duration "
         "is unknown:"]),
    F(r"v^2 = v_0^2 + 2 a s"),
    (P, ["A stone dropped from rest falls with ", F(r"a = g \approx 9.81"),
         " metres per second squared, so after two seconds it has fallen about 19.6 metres."]),
))

WIKI = Article("f-wikipedia", "Pythagorean theorem", "wiki", "plain", "docs", (
    (P, ["In mathematics, the Pythagorean theorem is a fundamental relation in Euclidean geometry between "
         "the three sides of a right triangle. It states that the area of the square whose side is the "
         "hypotenuse is equal to the sum of the areas of the squares on the other two sides."]),
    (P, ["The theorem can be written as an equation relating the lengths of the sides ", F("a"), ", ",
         F("b"), " and the hypotenuse ", F("c"), ", sometimes called the Pythagorean equation:"]),
    F("a^{2}+b^{2}=c^{2}"),
    ("h2", "Other forms"),
    (P, ["If ", F("c"), " denotes the length of the hypotenuse and ", F("a"), " and ", F("b"),
         " denote the lengths of the other two sides, the theorem can be expressed as the Pythagorean "
         "equation. If the lengths of both a and b are known, then c can be calculated as"]),
    F("c={\\sqrt {a^{2}+b^{2}}}."),
    (P, ["The distance between two points of the plane follows from the theorem: ",
         F("d={\\sqrt {(x_{2}-x_{1})^{2}+(y_{2}-y_{1})^{2}}}"), "."]),
))

WIKI_IMG = Article("f-wikipedia-img", "Quadratic equation", "wiki-img", "plain", "docs", (
    (P, ["In mathematics, a quadratic equation is an equation that can be rearranged in standard form as"]),
    F("ax^{2}+bx+c=0\\,,"),
    (P, ["where the variable ", F("x"), " represents an unknown number, and ", F("a"), ", ", F("b"),
         " and ", F("c"), " represent known numbers, where ", F("a\\neq 0"), "."]),
    ("h2", "Quadratic formula"),
    (P, ["The solutions of the equation are given by the quadratic formula:"]),
    F("x={\\frac {-b\\pm {\\sqrt {b^{2}-4ac}}}{2a}}"),
    (P, ["The quantity ", F("\\Delta =b^{2}-4ac"),
         " is the discriminant: the equation has two real roots when it is positive, one repeated root "
         "when it is zero and two complex roots when it is negative."]),
))

LATEXML = Article("f-latexml", "Scaled dot-product attention", "latexml", "plain", "docs", (
    ("h2", "2 Background"),
    (P, ["An attention function maps a query and a set of key-value pairs to an output. We compute the "
         "attention function on a set of queries simultaneously, packed together into a matrix ", F("Q"),
         ". The keys and values are also packed together into matrices ", F("K"), " and ", F("V"), ":"]),
    F(r"\mathrm{Attention}(Q,K,V)=\mathrm{softmax}\left(\frac{QK^{T}}{\sqrt{d_{k}}}\right)V"),
    (P, ["The dot products grow large in magnitude for large values of ", F("d_{k}"),
         ", pushing the softmax function into regions where it has extremely small gradients. To "
         "counteract this effect, we scale the dot products by ", F(r"\frac{1}{\sqrt{d_{k}}}"), "."]),
    (P, ["Multi-head attention projects the queries, keys and values ", F("h"),
         " times with different learned projections and concatenates the results:"]),
    F(r"\mathrm{MultiHead}(Q,K,V)=\mathrm{Concat}(\mathrm{head}_{1},\dots,\mathrm{head}_{h})W^{O}"),
    (P, ["In this work we employ ", F("h=8"), " parallel attention layers, or heads, and for each of these "
         "we use ", F("d_{k}=d_{v}=d_{\\mathrm{model}}/h=64"), "."]),
))

DOLLAR = Article("f-dollar", "Why is the expected number of coin flips to get two heads in a row six?",
                 "dollar", "plain", "news", (
    (P, ["I keep seeing the answer 6 for the expected number of fair coin flips until two heads appear in a "
         "row, but I cannot see where it comes from. Can someone explain the reasoning?"]),
    ("h2", "Answer"),
    (P, ["Let ", F("E"), " be the expected number of flips starting from scratch, and ", F("E_1"),
         " the expected number of further flips when the last flip was a head. Conditioning on the next "
         "flip gives two equations:"]),
    F(r"E = 1 + \tfrac{1}{2} E_1 + \tfrac{1}{2} E"),
    F(r"E_1 = 1 + \tfrac{1}{2} \cdot 0 + \tfrac{1}{2} E"),
    (P, ["Substituting the second into the first, ", F(r"\tfrac{1}{2} E = 1 + \tfrac{1}{2}(1 + \tfrac{1}{2} E)"),
         ", so ", F(r"\tfrac{1}{4} E = \tfrac{3}{2}"), " and ", F("E = 6"), "."]),
    (P, ["More generally, the expected number of flips to see ", F("n"), " heads in a row is ",
         F("2^{n+1} - 2"), ", which gives 2, 6, 14 and 30 for the first four values."]),
))

# ------------------------------------------------------------------ code

_PY = '''def moving_average(values, window):
    """Mean of each run of `window` consecutive values."""
    if window <= 0:
        raise ValueError("window must be positive")

    total = sum(values[:window])
    out = [total / window]
    for i in range(window, len(values)):
        total += values[i] - values[i - window]
        out.append(total / window)
    return out
'''

SPHINX = Article("c-sphinx-linenos", "Computing a moving average", "katex", "sphinx", "docs", (
    (P, ["A moving average smooths a series by replacing each value with the mean of the values in a "
         "window around it. The naive version sums every window again; the version below keeps a running "
         "total instead, so each step costs one addition and one subtraction."]),
    Code(_PY, "python"),
    (P, ["The function raises an error for a window that is not positive, because the mean of an empty "
         "window is undefined. For a series of length n and a window of size k it returns n - k + 1 values."]),
    (P, ["Floating-point error accumulates in the running total over very long series; recomputing the "
         "total from scratch every few thousand steps keeps it in check."]),
))

_GO = '''package main

import (
	"fmt"
	"strings"
)

func main() {
	words := strings.Fields("the quick brown fox")
	for i, w := range words {
		fmt.Printf("%d: %s\\n", i, w)
	}
}
'''

INLINE_NUMBERS = Article("c-inline-linenos", "Splitting a string into words in Go", "katex", "inline-numbers",
                         "blog", (
    (P, ["Go's standard library has a function for almost every everyday string task. To split a sentence "
         "into words, strings.Fields splits around runs of white space and drops empty strings, which is "
         "usually what you want."]),
    Code(_GO, "go"),
    (P, ["Note the tabs: gofmt indents with tabs, and the listing keeps them. Running the program prints "
         "each word with its index, starting at zero."]),
    (P, ["If you need to split on something other than white space, strings.Split and strings.FieldsFunc "
         "cover the remaining cases."]),
))

_JS = '''async function fetchJson(url, { retries = 3 } = {}) {
  for (let attempt = 1; attempt <= retries; attempt++) {
    const response = await fetch(url);
    if (response.ok) {
      return response.json();
    }
    await new Promise((resolve) => setTimeout(resolve, 2 ** attempt * 100));
  }
  throw new Error(`Failed after ${retries} attempts: ${url}`);
}
'''

HLJS = Article("c-hljs-copy", "Retrying fetch requests with exponential backoff", "katex", "hljs", "news", (
    (P, ["Network requests fail for all sorts of transient reasons. Rather than giving up at the first "
         "error, a client can wait and try again, doubling the delay each time so that a struggling server "
         "is not flooded."]),
    Code(_JS, "javascript"),
    (P, ["The helper returns the parsed body of the first successful response and throws once every "
         "attempt has failed. The delays grow as 200, 400 and 800 milliseconds."]),
    (P, ["In production you would also add some random jitter to the delay, so that many clients that "
         "failed at the same moment do not retry in lockstep."]),
))

_PY2 = '''import csv
from collections import Counter


def top_words(path, n=10):
    counts = Counter()
    with open(path, newline="") as f:
        for row in csv.reader(f):
            counts.update(row[1].lower().split())
    return counts.most_common(n)
'''

_SH = '''python -m venv .venv
source .venv/bin/activate
pip install -r requirements.txt
'''

PRISM = Article("c-prism-linenumbers", "Counting words in a CSV file", "katex", "prism", "blog", (
    (P, ["Suppose you have exported a spreadsheet of customer comments and want to know which words come "
         "up most often. Python's csv module and a Counter do the job in a few lines."]),
    (P, ["First, create a virtual environment and install the dependencies:"]),
    Code(_SH, "bash"),
    (P, ["Then the function itself, which reads the second column of every row:"]),
    Code(_PY2, "python"),
    (P, ["The result is a list of (word, count) pairs, most frequent first. Stop words such as \"the\" and "
         "\"and\" will dominate, so you may want to filter them out before counting."]),
))

_HEXO_PY = '''from pathlib import Path

for path in sorted(Path("posts").glob("*.md")):
    text = path.read_text(encoding="utf-8")
    title = text.splitlines()[0].lstrip("# ")
    print(f"{path.stem}: {title}")
'''

_HEXO_SH = '''hexo new post "My first post"
hexo generate
hexo server --port 4000
'''

HEXO = Article("c-hexo-gutter", "Listing the titles of a static blog", "katex", "hexo", "blog", (
    (P, ["Static site generators keep every post as a Markdown file, which makes small maintenance scripts "
         "easy to write. To create a post and preview the site locally, three commands are enough:"]),
    Code(_HEXO_SH, "bash"),
    (P, ["The script below prints each post's file name beside its title, taken from the first line of "
         "the file."]),
    Code(_HEXO_PY, "python"),
    (P, ["Sorting the paths keeps the output stable from one run to the next, which makes it easy to "
         "compare two listings with diff."]),
))

_PHP = '''<?php
function slugify(string $title): string
{
    $slug = strtolower(trim($title));
    $slug = preg_replace('/[^a-z0-9]+/', '-', $slug);
    return trim($slug, '-');
}

echo slugify("Hello, World!"); // hello-world
'''

BRUSH = Article("c-syntaxhighlighter", "Turning titles into URL slugs in PHP", "katex", "brush", "news", (
    (P, ["Content management systems build readable URLs from article titles. The usual recipe lowercases "
         "the title, replaces every run of characters that are not letters or digits with a hyphen, and "
         "trims the hyphens left at either end."]),
    Code(_PHP, "php"),
    (P, ["Titles in other scripts need transliteration first, otherwise the regular expression removes "
         "every character and the slug comes out empty."]),
    (P, ["Remember to check that the slug is unique before saving it, and append a number if it is not."]),
))

_SQL = '''SELECT customer_id,
       COUNT(*) AS orders,
       SUM(total) AS revenue
FROM orders
WHERE created_at >= DATE '2024-01-01'
GROUP BY customer_id
HAVING COUNT(*) > 5
ORDER BY revenue DESC;
'''

PRE_BR = Article("c-pre-br", "Finding your best customers with one query", "katex", "pre-br", "news", (
    (P, ["Before building a dashboard, it is worth asking the database directly. The query below lists "
         "the customers who placed more than five orders this year, with the revenue they brought in."]),
    Code(_SQL, ""),  # the page names no language
    (P, ["An index on the created_at column keeps the query fast as the table grows. On a table of a few "
         "million rows it returns in well under a second."]),
    (P, ["Swap the HAVING clause for a LIMIT if you only want the top ten customers."]),
))

_MAKE = '''CFLAGS = -O2 -Wall

app: main.o util.o
\t$(CC) $(CFLAGS) -o app main.o util.o

%.o: %.c
\t$(CC) $(CFLAGS) -c $<

clean:
\trm -f app *.o
'''

_YAML = '''build:
  image: gcc:13
  script:
    - make
    - ./app --self-test
'''

DATA_LANG = Article("c-data-lang", "A minimal Makefile for a small C project", "katex", "data-lang", "docs", (
    (P, ["Make is old, but for a project of a handful of C files it is still the simplest build tool there "
         "is. The Makefile below builds the program from two object files and knows how to clean up "
         "after itself."]),
    Code(_MAKE, "makefile"),
    (P, ["The recipe lines must start with a tab, not spaces; that single rule causes more confusion than "
         "the rest of the syntax put together."]),
    (P, ["To build the project in continuous integration, a job only needs a compiler image and two "
         "commands:"]),
    Code(_YAML, "yaml"),
))

# ------------------------------------------------------------------ tables

_SPAN_HEAD = Table(
    '<table class="results"><thead><tr><th rowspan="2">Method</th><th colspan="2">Time (ms)</th>'
    '<th rowspan="2">Accuracy</th></tr><tr><th>small</th><th>large</th></tr></thead><tbody>'
    '<tr><td>Baseline</td><td>12</td><td>140</td><td>0.81</td></tr>'
    '<tr><td>Cached</td><td>4</td><td>52</td><td>0.81</td></tr>'
    '<tr><td>Pruned</td><td>3</td><td>31</td><td>0.78</td></tr></tbody></table>',
    '<table>\n<tr><th rowspan="2">Method</th><th colspan="2">Time (ms)</th><th rowspan="2">Accuracy</th></tr>\n'
    '<tr><th>small</th><th>large</th></tr>\n<tr><td>Baseline</td><td>12</td><td>140</td><td>0.81</td></tr>\n'
    '<tr><td>Cached</td><td>4</td><td>52</td><td>0.81</td></tr>\n'
    '<tr><td>Pruned</td><td>3</td><td>31</td><td>0.78</td></tr>\n</table>')

SPAN_HEAD = Article("t-header-spans", "Three ways to speed up a search index", "katex", "plain", "blog", (
    (P, ["We measured three versions of our search index on two collections: a small one of ten thousand "
         "documents and a large one of two million. Each query was run a thousand times and we report the "
         "median time."]),
    _SPAN_HEAD,
    (P, ["Caching the posting lists cuts the time by a factor of three at no cost in accuracy. Pruning "
         "goes further on the large collection but loses three points of accuracy, which is too much for "
         "our users."]),
    (P, ["We shipped the cached version. The pruned one stays behind a flag for the batch jobs, where "
         "speed matters more than the last few results."]),
))

_SCHEDULE = Table(
    '<table class="schedule"><tr><th>Day</th><th>Time</th><th>Session</th><th>Room</th></tr>'
    '<tr><td rowspan="3">Monday</td><td>09:00</td><td>Opening keynote</td><td rowspan="2">Main hall</td></tr>'
    '<tr><td>10:30</td><td>Parsing at scale</td></tr>'
    '<tr><td>14:00</td><td>Workshop: clean corpora</td><td>Room B</td></tr>'
    '<tr><td rowspan="2">Tuesday</td><td>09:00</td><td colspan="2">Poster session (all rooms)</td></tr>'
    '<tr><td>16:00</td><td>Closing panel</td><td>Main hall</td></tr></table>',
    '<table>\n<tr><th>Day</th><th>Time</th><th>Session</th><th>Room</th></tr>\n'
    '<tr><td rowspan="3">Monday</td><td>09:00</td><td>Opening keynote</td><td rowspan="2">Main hall</td></tr>\n'
    '<tr><td>10:30</td><td>Parsing at scale</td></tr>\n'
    '<tr><td>14:00</td><td>Workshop: clean corpora</td><td>Room B</td></tr>\n'
    '<tr><td rowspan="2">Tuesday</td><td>09:00</td><td colspan="2">Poster session (all rooms)</td></tr>\n'
    '<tr><td>16:00</td><td>Closing panel</td><td>Main hall</td></tr>\n</table>')

BODY_SPANS = Article("t-body-spans", "Programme of the two-day workshop", "katex", "plain", "news", (
    (P, ["The workshop on web corpora returns this spring for two days of talks, posters and hands-on "
         "sessions. Registration is free for students and opens next week."]),
    _SCHEDULE,
    (P, ["All sessions will be recorded and the slides published on the workshop's site. Coffee is served "
         "in the main hall between sessions."]),
))

_SIMPLE = Table(
    '<table><thead><tr><th>Language</th><th>First release</th><th>Typing</th><th>Garbage collected</th></tr>'
    '</thead><tbody><tr><td>C</td><td>1972</td><td>static, weak</td><td>no</td></tr>'
    '<tr><td>Python</td><td>1991</td><td>dynamic, strong</td><td>yes</td></tr>'
    '<tr><td>Go</td><td>2009</td><td>static, strong</td><td>yes</td></tr>'
    '<tr><td><strong>Rust</strong></td><td>2015</td><td>static, strong</td><td>no (<a href="/ownership/">'
    'ownership</a>)</td></tr></tbody></table>',
    '| Language | First release | Typing | Garbage collected |\n|---|---|---|---|\n'
    '| C | 1972 | static, weak | no |\n| Python | 1991 | dynamic, strong | yes |\n'
    '| Go | 2009 | static, strong | yes |\n| **Rust** | 2015 | static, strong | no (ownership) |')

SIMPLE = Article("t-simple", "Four languages at a glance", "katex", "plain", "docs", (
    (P, ["Choosing a language for a new service is rarely about syntax. The table below compares four "
         "popular choices on the properties that matter most for operations."]),
    _SIMPLE,
    (P, ["Garbage collection simplifies memory management at the cost of occasional pauses; Rust avoids "
         "both the pauses and the manual bookkeeping through its ownership rules."]),
))

_NESTED = Table(
    '<table class="plans"><tr><th>Plan</th><th>Price</th><th>Limits</th></tr>'
    '<tr><td>Free</td><td>0 €</td><td><table class="limits"><tr><td>Projects</td><td>3</td></tr>'
    '<tr><td>Storage</td><td>1 GB</td></tr></table></td></tr>'
    '<tr><td>Team</td><td>12 € per user</td><td><table class="limits"><tr><td>Projects</td><td>unlimited</td></tr>'
    '<tr><td>Storage</td><td>100 GB</td></tr></table></td></tr></table>',
    '<table>\n<tr><th>Plan</th><th>Price</th><th>Limits</th></tr>\n'
    '<tr><td>Free</td><td>0 €</td><td><table><tr><td>Projects</td><td>3</td></tr>'
    '<tr><td>Storage</td><td>1 GB</td></tr></table></td></tr>\n'
    '<tr><td>Team</td><td>12 € per user</td><td><table><tr><td>Projects</td><td>unlimited</td></tr>'
    '<tr><td>Storage</td><td>100 GB</td></tr></table></td></tr>\n</table>')

NESTED = Article("t-nested", "Which plan is right for you?", "katex", "plain", "blog", (
    (P, ["We have simplified our pricing to two plans. The free plan covers personal projects; the team "
         "plan lifts the limits and adds shared workspaces."]),
    _NESTED,
    (P, ["Prices exclude VAT. You can switch plans at any time and we refund the unused part of the "
         "month."]),
))

_MULTI = Table(
    '<table class="compare"><tr><th>Approach</th><th>Notes</th></tr>'
    '<tr><td>Rules</td><td><p>Fast and predictable.</p><p>Break on sites nobody looked at when the rules '
    'were written.</p></td></tr>'
    '<tr><td>Learned model</td><td><p>Generalises to unseen templates.</p><p>Needs labelled pages and a '
    'careful evaluation on held-out sites.</p></td></tr></table>',
    '<table>\n<tr><th>Approach</th><th>Notes</th></tr>\n'
    '<tr><td>Rules</td><td><p>Fast and predictable.</p><p>Break on sites nobody looked at when the rules '
    'were written.</p></td></tr>\n'
    '<tr><td>Learned model</td><td><p>Generalises to unseen templates.</p><p>Needs labelled pages and a '
    'careful evaluation on held-out sites.</p></td></tr>\n</table>')

MULTI = Article("t-multipara", "Rules or a model for boilerplate removal?", "katex", "plain", "news", (
    (P, ["Every team that cleans web pages at scale ends up choosing between hand-written rules and a "
         "model trained on labelled pages. Neither is free."]),
    _MULTI,
    (P, ["In practice the two are combined: rules for the cases that are cheap to state, a model for the "
         "long tail."]),
))

_LAYOUT_GOLD = ""

# ------------------------------------------------------------------ mixed

_TORCH = '''import torch

def softmax(z: torch.Tensor) -> torch.Tensor:
    z = z - z.max(dim=-1, keepdim=True).values
    e = z.exp()
    return e / e.sum(dim=-1, keepdim=True)
'''

_MIXED_TABLE = Table(
    '<table><thead><tr><th>Input</th><th>Naive</th><th>Shifted</th></tr></thead><tbody>'
    '<tr><td>[1, 2, 3]</td><td>0.090, 0.245, 0.665</td><td>0.090, 0.245, 0.665</td></tr>'
    '<tr><td>[1000, 1001, 1002]</td><td>nan, nan, nan</td><td>0.090, 0.245, 0.665</td></tr></tbody></table>',
    '| Input | Naive | Shifted |\n|---|---|---|\n| [1, 2, 3] | 0.090, 0.245, 0.665 | 0.090, 0.245, 0.665 |\n'
    '| [1000, 1001, 1002] | nan, nan, nan | 0.090, 0.245, 0.665 |')

MIXED_KATEX = Article("m-softmax", "A numerically stable softmax", "katex", "prism", "blog", (
    (P, ["The softmax function turns a vector of scores into probabilities. For a vector ", F("z"),
         " of length ", F("K"), " it is defined as"]),
    F(r"\sigma(z)_i = \frac{e^{z_i}}{\sum_{j=1}^{K} e^{z_j}}"),
    (P, ["Computed as written, it overflows as soon as a score exceeds about 709, the largest ", F("x"),
         " for which ", F("e^x"), " fits in a double. Subtracting the maximum score first changes nothing "
         "mathematically, because ", F(r"\sigma(z - c) = \sigma(z)"), " for any constant ", F("c"), "."]),
    Code(_TORCH, "python"),
    (P, ["The table compares the two versions on a small input and on a large one:"]),
    _MIXED_TABLE,
    (P, ["The shifted version gives the same probabilities on both inputs, while the naive one returns "
         "nan on the second."]),
))

_RUST = '''fn mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    Some(xs.iter().sum::<f64>() / xs.len() as f64)
}
'''

_VAR_TABLE = Table(
    '<table><tr><th>Estimator</th><th>Divisor</th><th>Bias</th></tr>'
    '<tr><td>Population variance</td><td>n</td><td>biased</td></tr>'
    '<tr><td>Sample variance</td><td>n - 1</td><td>unbiased</td></tr></table>',
    '| Estimator | Divisor | Bias |\n|---|---|---|\n| Population variance | n | biased |\n'
    '| Sample variance | n - 1 | unbiased |')

MIXED_MATHJAX = Article("m-variance", "Mean and variance without surprises", "mathjax3", "hljs", "docs", (
    (P, ["The arithmetic mean of ", F("n"), " numbers is ", F(r"\bar{x} = \frac{1}{n}\sum_{i=1}^{n} x_i"),
         ". In Rust, returning an Option makes the empty case explicit instead of dividing by zero:"]),
    Code(_RUST, "rust"),
    (P, ["The variance measures the spread around the mean. The unbiased sample estimator divides by ",
         F("n-1"), " rather than ", F("n"), ":"]),
    F(r"s^2 = \frac{1}{n-1} \sum_{i=1}^{n} (x_i - \bar{x})^2"),
    _VAR_TABLE,
    (P, ["For large samples the difference is negligible; for a handful of measurements it matters."]),
))

ARTICLES = (KATEX, MATHJAX3, MATHJAX2, MATHML, WIKI, WIKI_IMG, LATEXML, DOLLAR, SPHINX, INLINE_NUMBERS, HLJS,
            PRISM, HEXO, BRUSH, PRE_BR, DATA_LANG, SPAN_HEAD, BODY_SPANS, SIMPLE, NESTED, MULTI,
            MIXED_KATEX, MIXED_MATHJAX)

LAYOUT = Article("t-layout", "Writing for the early web", "katex", "plain", "layout", (
    (P, ["Before style sheets were widely supported, designers laid out whole pages with tables: a row "
         "for the masthead, a narrow cell for the navigation, a wide one for the text, and a last row for "
         "the footer."]),
    (P, ["The technique was fragile. Screen readers read the cells in source order, so the navigation "
         "came before every article, and a single missing closing tag could collapse the whole page."]),
    (P, ["Many of those pages are still online, and an extractor that treats every table as data turns "
         "them into one enormous, meaningless grid."]),
))

ARTICLES = (*ARTICLES, LAYOUT)

_TS = '''interface User {
  id: number;
  name: string;
  email?: string;
}

export function displayName(user: User): string {
  return user.email ? `${user.name} <${user.email}>` : user.name;
}
'''

VITEPRESS = Article("c-shiki-vitepress", "Optional properties in TypeScript", "katex", "vitepress", "docs", (
    (P, ["An interface can mark a property as optional with a question mark. The compiler then forces every "
         "use of the property to handle the case where it is missing."]),
    Code(_TS, "typescript"),
    (P, ["Inside displayName the check on user.email narrows its type from string | undefined to string, so "
         "the template literal is accepted without a cast."]),
    (P, ["Turning on strictNullChecks is what makes this work; without it, undefined is silently allowed "
         "everywhere."]),
))

_SPECS = Table(
    '<table class="specs"><caption>Technical data</caption><tbody>'
    '<tr><td>Weight</td><td>1.2 kg</td></tr><tr><td>Battery</td><td>52 Wh, about 10 hours</td></tr>'
    '<tr><td>Display</td><td>14 inch, 2880 × 1800</td></tr><tr><td>Ports</td><td>2 × USB-C, 1 × HDMI</td></tr>'
    '</tbody></table>',
    # the caption is a line of text above the table: a pipe table has no caption
    'Technical data\n\n|  |  |\n|---|---|\n| Weight | 1.2 kg |\n| Battery | 52 Wh, about 10 hours |\n'
    '| Display | 14 inch, 2880 × 1800 |\n| Ports | 2 × USB-C, 1 × HDMI |')

KEY_VALUE = Article("t-key-value", "A light laptop for long trips", "katex", "plain", "news", (
    (P, ["We carried the new fourteen-inch model on three long-haul flights. It is light enough to forget in "
         "a backpack and the battery outlasted every flight."]),
    _SPECS,
    (P, ["The only disappointment is the webcam, which struggles in the dim light of a hotel room."]),
))

ARTICLES = (*ARTICLES, VITEPRESS, KEY_VALUE)

# ------------------------------------------------------------------ added after detourage's issue-46 work

MATHJAX3_SVG = Article("f-mathjax3-svg", "Least squares in matrix form", "mathjax3-svg", "plain", "blog", (
    (P, ["A straight-line fit through ", F("n"), " points is a linear system with more equations than "
         "unknowns. Stacking the points gives"]),
    F(r"\begin{aligned} y &= X\beta + \varepsilon \\ \hat{\beta} &= (X^\top X)^{-1} X^\top y \end{aligned}"),
    (P, ["where ", F("X"), " holds a column of ones and a column of the ", F("x_i"),
         ". The residual sum of squares is ", F(r"\lVert y - X\hat{\beta} \rVert^2"),
         ", and the fit explains the share ", F(r"R^2 = 1 - \frac{\text{RSS}}{\text{TSS}}"),
         " of the variance."]),
    (P, ["A statistics package that does this costs $5 a month and a spreadsheet does it for free, so "
         "there is no reason not to check a fit by hand once."]),
    ("ul", [["the slope is ", F(r"\hat{\beta}_1 = \frac{\operatorname{cov}(x, y)}{\operatorname{var}(x)}")],
            ["the intercept is ", F(r"\hat{\beta}_0 = \bar{y} - \hat{\beta}_1 \bar{x}")]]),
))

_MATRIX_TABLE = Table(
    '<table><thead><tr><th>Matrix</th><th>Determinant</th></tr></thead><tbody>'
    '<tr><td>Identity</td><td>{{\\det I = 1}}</td></tr>'
    '<tr><td>Rotation by {{\\theta}}</td><td>{{1}}</td></tr>'
    '<tr><td>Scaling by {{k}} in {{n}} dimensions</td><td>{{k^n}}</td></tr></tbody></table>',
    '| Matrix | Determinant |\n|---|---|\n| Identity | $\\det I = 1$ |\n| Rotation by $\\theta$ | $1$ |\n'
    '| Scaling by $k$ in $n$ dimensions | $k^n$ |')

KATEX_MATRIX = Article("f-katex-matrix", "What a determinant measures", "katex", "plain", "news", (
    (P, ["The determinant of a square matrix tells how the linear map it represents scales volumes. For a "
         "two-by-two matrix it is"]),
    F(r"\det \begin{pmatrix} a & b \\ c & d \end{pmatrix} = ad - bc"),
    (P, ["A determinant of zero means the map squashes space onto a lower dimension, so the matrix has no "
         "inverse. The sign tells whether the map keeps or flips orientation."]),
    _MATRIX_TABLE,
    (P, ["Determinants multiply: ", F(r"\det(AB) = \det A \cdot \det B"),
         ", which is why a product of invertible matrices is invertible."]),
))

_CSV_PY = '''import csv

with open("scores.csv", newline="") as f:
    rows = list(csv.DictReader(f))

best = max(rows, key=lambda r: float(r["score"]))
print(best["name"], best["score"])
'''

HLJS_LN = Article("c-hljs-linenumbers", "Finding the best score in a CSV file", "katex", "hljs-ln", "blog", (
    (P, ["Reading a CSV file into dictionaries makes the code that follows read like the question it "
         "answers. Here we look for the row with the highest score."]),
    Code(_CSV_PY, "python"),
    (P, ["DictReader takes the column names from the first line of the file, and the key function turns "
         "each score into a number before comparing, so that 10 beats 9."]),
))

_RESULTS = Table(
    '<table class="results"><caption>Table 2: extraction quality by page type</caption>'
    '<thead><tr><th rowspan="2" scope="col">Page type</th><th colspan="3" scope="colgroup">F1</th></tr>'
    '<tr><th scope="col">rules</th><th scope="col">model</th><th scope="col">both</th></tr></thead>'
    '<tbody><tr><th scope="row">Article</th><td>0.91</td><td>0.94</td><td>0.95</td></tr>'
    '<tr><th scope="row">Forum</th><td>0.72</td><td>0.83</td><td>0.84</td></tr>'
    '<tr><th scope="row">Product</th><td>0.64</td><td>0.79</td><td>0.80</td></tr></tbody>'
    '<tfoot><tr><td colspan="4">Mean over 1,200 pages;<br>best value per row in the last column.</td></tr>'
    '</tfoot></table>',
    'Table 2: extraction quality by page type\n\n'
    '<table>\n<tr><th rowspan="2">Page type</th><th colspan="3">F1</th></tr>\n'
    '<tr><th>rules</th><th>model</th><th>both</th></tr>\n'
    '<tr><th>Article</th><td>0.91</td><td>0.94</td><td>0.95</td></tr>\n'
    '<tr><th>Forum</th><td>0.72</td><td>0.83</td><td>0.84</td></tr>\n'
    '<tr><th>Product</th><td>0.64</td><td>0.79</td><td>0.80</td></tr>\n'
    '<tr><td colspan="4">Mean over 1,200 pages;<br>best value per row in the last column.</td></tr>\n</table>')

RESULTS = Article("t-caption-tfoot", "Rules and a model, page type by page type", "katex", "plain", "docs", (
    (P, ["We scored the rule-based cleaner, the model and their combination on three page types. Forums "
         "and product pages are where rules struggle most."]),
    _RESULTS,
    (P, ["The combination never loses to the model alone, but its gain is small once the model is good."]),
))

ARTICLES = (*ARTICLES, MATHJAX3_SVG, KATEX_MATRIX, HLJS_LN, RESULTS)
