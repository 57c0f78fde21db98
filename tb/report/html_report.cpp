#include "html_report.h"

#include <array>

#include <fmt/format.h>

#include "report.h"

namespace creditloop {

namespace {

// The page's style and script, written here and inlined: the page loads nothing.
constexpr const char* kStyle = R"(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; margin: 0 0 .3em; } h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; } td, th { padding: 2px 8px; text-align: left; border-bottom: 1px solid #eee; }
th { background: #f3f3f3; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font: 12px ui-monospace, monospace; background: #f5f5f5; padding: 1px 3px; word-break: break-all; }
.summary span { display: inline-block; margin-right: 1.2em; } .summary b { font-size: 1.3em; }
.passed { color: #17692b; } .failed { color: #b3141b; } .caught { color: #7a4f00; } .not-run { color: #666; }
tr.failed td { background: #fdecec; } .failure { border-left: 4px solid #b3141b; padding: .2em .8em; margin: .8em 0; }
.failure p { margin: .3em 0; } button.copy { font-size: 12px; margin-left: .5em; }
.controls { margin: .5em 0; } .controls input { width: 18em; }
.plots img { max-width: 100%; border: 1px solid #ddd; margin: .3em 0 1em; } .meta { color: #555; }
)";

// Filters the test table by name and verdict; the initial filter may come from the address
// (index.html?verdict=failed&name=seed001), so a link can open the page filtered.
constexpr const char* kScript = R"(
function applyFilter() {
  var name = document.getElementById('filter-name').value.toLowerCase();
  var verdict = document.getElementById('filter-verdict').value;
  var rows = document.querySelectorAll('#tests tbody tr'), shown = 0;
  for (var i = 0; i < rows.length; i++) {
    var r = rows[i];
    var match = r.getAttribute('data-name').toLowerCase().indexOf(name) >= 0 &&
                (verdict === 'all' || r.getAttribute('data-verdict') === verdict);
    r.hidden = !match;
    if (match) shown++;
  }
  document.getElementById('shown').textContent = shown + ' of ' + rows.length + ' tests shown';
}
function copyRerun(button) {
  var text = button.parentNode.querySelector('code').textContent;
  function done(word) { button.textContent = word; setTimeout(function () { button.textContent = 'copy'; }, 1500); }
  function select() {
    var range = document.createRange();
    range.selectNodeContents(button.parentNode.querySelector('code'));
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    var copied = false;
    try { copied = document.execCommand('copy'); } catch (e) {}
    done(copied ? 'copied' : 'selected: press Ctrl-C');
  }
  if (navigator.clipboard && navigator.clipboard.writeText)
    navigator.clipboard.writeText(text).then(function () { done('copied'); }, select);
  else select();
}
document.addEventListener('DOMContentLoaded', function () {
  var query = new URLSearchParams(window.location.search);
  if (query.has('name')) document.getElementById('filter-name').value = query.get('name');
  if (query.has('verdict')) document.getElementById('filter-verdict').value = query.get('verdict');
  document.getElementById('filter-name').addEventListener('input', applyFilter);
  document.getElementById('filter-verdict').addEventListener('change', applyFilter);
  applyFilter();
});
)";

constexpr std::array<ReportVerdict, 4> kVerdicts = {ReportVerdict::passed, ReportVerdict::failed, ReportVerdict::caught,
                                                    ReportVerdict::not_run};

// The CSS class of a verdict ("not run" has a space).
std::string verdict_class(ReportVerdict verdict) {
    return verdict == ReportVerdict::not_run ? "not-run" : verdict_name(verdict);
}

// A link to `target` if there is one, else nothing.
std::string link(const std::string& target, const std::string& css_class, const std::string& label) {
    if (target.empty()) return "";
    return fmt::format("<a class=\"{}\" href=\"{}\">{}</a>", css_class, html_escape(target), html_escape(label));
}

// A command in <code> with its copy button.
std::string command_line(const std::string& command) {
    return fmt::format("<p class=\"rerun-line\">rerun: <code class=\"rerun\">{}</code><button class=\"copy\" type=\"button\" "
                       "onclick=\"copyRerun(this)\">copy</button></p>\n",
                       html_escape(command));
}

void summary(std::string& out, const ReportPage& page) {
    std::array<size_t, kVerdicts.size()> counts{};
    for (const auto& t : page.tests) ++counts[static_cast<size_t>(t.verdict)];
    out += "<div class=\"summary\" id=\"summary\">\n";
    for (auto v : kVerdicts)
        out += fmt::format("<span class=\"{0}\"><b id=\"count-{0}\">{1}</b> {2}</span>\n", verdict_class(v),
                           counts[static_cast<size_t>(v)], verdict_name(v));
    out += fmt::format("<span><b id=\"count-total\">{}</b> tests</span>\n</div>\n", page.tests.size());
    out += fmt::format("<p class=\"meta\">seed <b id=\"seed\">{}</b> &middot; commit <b id=\"commit\">{}</b> &middot; "
                       "written {} &middot; from <code>{}</code></p>\n",
                       html_escape(page.seed), html_escape(page.commit), html_escape(page.written), html_escape(page.junit));
}

void test_table(std::string& out, const ReportPage& page) {
    out += "<h2>Tests</h2>\n<div class=\"controls\"><input id=\"filter-name\" type=\"search\" placeholder=\"filter by name\"> "
           "<select id=\"filter-verdict\"><option value=\"all\">every verdict</option>";
    for (auto v : kVerdicts) out += fmt::format("<option value=\"{0}\">{0}</option>", verdict_name(v));
    out += "</select> <span id=\"shown\"></span></div>\n<table id=\"tests\"><thead><tr><th>test</th><th>configuration</th>"
           "<th>cycles</th><th>measured</th><th>predicted</th><th>seed's value</th><th>stimulus seed</th><th>verdict</th>"
           "</tr></thead>\n<tbody>\n";
    for (size_t i = 0; i < page.tests.size(); ++i) {
        const auto& t = page.tests[i];
        const std::string name = html_escape(t.name);
        const std::string verdict = t.verdict == ReportVerdict::failed
                                        ? fmt::format("<a href=\"#failure-{}\">{}</a>", i, html_escape(t.verdict_text))
                                        : html_escape(t.verdict_text);
        out += fmt::format("<tr class=\"{}\" data-name=\"{}\" data-verdict=\"{}\"><td>{}</td><td><code>{}</code></td>"
                           "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                           "<td class=\"num\">{}</td><td class=\"{}\">{}</td></tr>\n",
                           verdict_class(t.verdict), name, verdict_name(t.verdict), name, html_escape(t.config),
                           html_escape(t.cycles), html_escape(t.measured), html_escape(t.predicted),
                           html_escape(t.seed_value), html_escape(t.seed), verdict_class(t.verdict), verdict);
    }
    out += "</tbody></table>\n";
}

void failures(std::string& out, const ReportPage& page) {
    size_t count = 0;
    for (const auto& t : page.tests) count += t.verdict == ReportVerdict::failed ? 1 : 0;
    if (!count) return;
    out += fmt::format("<h2>Failures ({})</h2>\n", count);
    for (size_t i = 0; i < page.tests.size(); ++i) {
        const auto& t = page.tests[i];
        if (t.verdict != ReportVerdict::failed) continue;
        out += fmt::format("<div class=\"failure\" id=\"failure-{}\"><p><b>FAIL {}</b> <code>{}</code></p>\n", i,
                           html_escape(t.name), html_escape(t.config));
        if (!t.first_violation.empty())
            out += fmt::format("<p>first violation: <code class=\"violation\">{}</code></p>\n", html_escape(t.first_violation));
        if (!t.rerun.empty()) out += command_line(t.rerun);
        if (!t.waves.empty())
            out += "<p>waves: " + link(t.waves, "waves", t.waves) + (t.gtkw.empty() ? "" : ", GTKWave save file: ") +
                   link(t.gtkw, "gtkw", t.gtkw) + "</p>\n";
        out += "</div>\n";
    }
}

// One table of bins: the name, the count and what it means.
void bin_table(std::string& out, const ReportPage& page, bool hit, const char* id) {
    out += fmt::format("<table id=\"{}\"><thead><tr><th>bin</th><th>count</th><th>meaning</th></tr></thead><tbody>\n", id);
    for (const auto& b : page.bins)
        if ((b.count != 0) == hit)
            out += fmt::format("<tr class=\"{}\"><td><code>{}</code></td><td class=\"num\">{}</td><td>{}</td></tr>\n",
                               hit ? "hit" : "failed", html_escape(b.name), b.count, html_escape(b.meaning));
    out += "</tbody></table>\n";
}

// The bins never hit first, in full; the bins hit folded below them.
void coverage(std::string& out, const ReportPage& page) {
    out += "<h2>Functional coverage</h2>\n";
    if (!page.has_coverage) {
        out += "<p>No coverage file beside the JUnit file.</p>\n";
        return;
    }
    size_t hit = 0;
    for (const auto& b : page.bins) hit += b.count ? 1 : 0;
    out += fmt::format("<p id=\"coverage-total\">{} of {} bins hit</p>\n", hit, page.bins.size());
    if (hit < page.bins.size()) {
        out += fmt::format("<h3>Never hit ({})</h3>\n", page.bins.size() - hit);
        bin_table(out, page, false, "coverage-unhit");
    }
    out += fmt::format("<details><summary>Hit ({})</summary>\n", hit);
    bin_table(out, page, true, "coverage-hit");
    out += "</details>\n";
}

void mutants(std::string& out, const ReportPage& page) {
    if (!page.has_mutants) return;
    size_t caught = 0;
    for (const auto& m : page.mutants) caught += m.caught ? 1 : 0;
    out += fmt::format("<h2>Mutants: {} of {} caught</h2>\n<table id=\"mutants\"><thead><tr><th>mutant</th><th>caught</th>"
                       "<th>cycle</th><th>by checks</th><th>stimulus</th><th>waves</th></tr></thead><tbody>\n",
                       caught, page.mutants.size());
    for (const auto& m : page.mutants) {
        out += fmt::format("<tr class=\"{}\"><td><code>{}</code><br><small>{}</small></td><td>{}</td><td class=\"num\">{}</td>"
                           "<td>{}</td><td>{}</td><td>{} {}</td></tr>\n",
                           m.caught ? "passed" : "failed", html_escape(m.name), html_escape(m.bug_class),
                           m.caught ? "yes" : "NO", m.caught ? std::to_string(m.cycle) : "-", html_escape(m.checks),
                           html_escape(m.stimulus), link(m.waves, "waves", "waves"), link(m.gtkw, "gtkw", "save file"));
        if (!m.rerun.empty())
            out += "<tr><td colspan=\"6\">" + command_line(m.rerun) + "</td></tr>\n";
    }
    out += "</tbody></table>\n";
}

void proofs(std::string& out, const ReportPage& page) {
    if (page.proof_design.empty()) return;
    size_t proved = 0;
    for (const auto& p : page.proofs) proved += p.result == "proved" ? 1 : 0;
    out += fmt::format("<h2>Proof of {}: {} of {} proved</h2>\n<table id=\"proof\"><thead><tr><th>configuration</th>"
                       "<th>property</th><th>result</th><th>k</th><th>waves</th></tr></thead><tbody>\n",
                       html_escape(page.proof_design), proved, page.proofs.size());
    for (const auto& p : page.proofs) {
        const std::string result = p.result + (p.cycle.empty() ? "" : " at cycle " + p.cycle);
        out += fmt::format("<tr class=\"{}\"><td><code>{}</code></td><td>{}</td><td>{}<br><small>{}</small></td>"
                           "<td class=\"num\">{}</td><td>{}</td></tr>\n",
                           p.result == "proved" ? "passed" : "failed", html_escape(p.configuration), html_escape(p.property),
                           html_escape(result), html_escape(p.note), html_escape(p.k.empty() ? "-" : p.k),
                           link(p.waves, "waves", "waves"));
        if (!p.rerun.empty()) out += "<tr><td colspan=\"5\">" + command_line(p.rerun) + "</td></tr>\n";
    }
    out += "</tbody></table>\n";
}

void plots(std::string& out, const ReportPage& page) {
    if (page.plots.empty()) return;
    out += "<h2>Plots</h2>\n<div class=\"plots\">\n";
    for (const auto& p : page.plots)
        out += fmt::format("<h3>{0}</h3>\n<img alt=\"{0}\" src=\"data:image/svg+xml;base64,{1}\">\n", html_escape(p.title),
                           base64(p.svg));
    out += "</div>\n";
}

}  // namespace

std::string html_escape(std::string_view text) {
    return xml_escape(std::string(text));   // &apos; is HTML5's too
}

std::string base64(std::string_view bytes) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const size_t left = bytes.size() - i;
        uint32_t group = static_cast<uint8_t>(bytes[i]) << 16;
        if (left > 1) group |= static_cast<uint8_t>(bytes[i + 1]) << 8;
        if (left > 2) group |= static_cast<uint8_t>(bytes[i + 2]);
        out += kAlphabet[(group >> 18) & 63];
        out += kAlphabet[(group >> 12) & 63];
        out += left > 1 ? kAlphabet[(group >> 6) & 63] : '=';
        out += left > 2 ? kAlphabet[group & 63] : '=';
    }
    return out;
}

const char* verdict_name(ReportVerdict verdict) {
    switch (verdict) {
        case ReportVerdict::passed: return "passed";
        case ReportVerdict::failed: return "failed";
        case ReportVerdict::caught: return "caught";
        case ReportVerdict::not_run: return "not run";
    }
    return "";
}

std::string html_report(const ReportPage& page) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"generator\" content=\"creditloop report\">\n"
                      "<title>creditloop regression: " + html_escape(page.seed.empty() ? page.junit : "seed " + page.seed) +
                      "</title>\n<style>" + kStyle + "</style>\n<script>" + kScript + "</script>\n</head>\n<body>\n"
                      "<h1>creditloop regression</h1>\n";
    summary(out, page);
    failures(out, page);
    test_table(out, page);
    coverage(out, page);
    mutants(out, page);
    proofs(out, page);
    plots(out, page);
    out += "</body>\n</html>\n";
    return out;
}

}  // namespace creditloop
