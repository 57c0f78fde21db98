// `creditloop sweep`: the curves reproduce the seeds' printed tables from the model and from the
// RTL, the plot is a standalone SVG with the bound and the knee, and bad input is refused with one
// line and nothing written.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "scoreboard.h"
#include "seed_tables.h"
#include "sweep.h"
#include "test_support.h"

using namespace creditloop;
namespace fs = std::filesystem;
using creditloop::testing::slurp;

namespace {

// A fresh directory for one sweep's outputs, removed afterwards.
class TempDir {
public:
    explicit TempDir(const std::string& tag)
        : path_(fs::temp_directory_path() / ("creditloop_sweep_" + tag + "_" + std::to_string(::getpid()))) {
        fs::remove_all(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    std::string str() const { return path_.string(); }
    fs::path operator/(const std::string& name) const { return path_ / name; }

private:
    fs::path path_;
};

struct SweepOutcome {
    int exit_code;
    std::string out;
    std::string err;
};

SweepOutcome sweep(std::vector<std::string> args, const std::string& out_dir) {
    args.push_back("--out");
    args.push_back(out_dir);
    std::ostringstream out, err;
    const int code = run_sweep(args, "build/creditloop", out, err);
    return {code, out.str(), err.str()};
}

int lines(const std::string& text) {
    int n = 0;
    for (char c : text) n += c == '\n';
    return n;
}

std::vector<std::string> split(const std::string& line, char separator) {
    std::vector<std::string> fields;
    std::string field;
    std::stringstream in(line);
    while (std::getline(in, field, separator)) fields.push_back(field);
    if (!line.empty() && line.back() == separator) fields.push_back("");
    return fields;
}

// sweep.csv as rows keyed by (L, B, K, drain_every), each a map from column name to text.
using CsvKey = std::tuple<int, int, int, int>;
std::map<CsvKey, std::map<std::string, std::string>> read_csv(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    const auto header = split(line, ',');
    std::map<CsvKey, std::map<std::string, std::string>> rows;
    while (std::getline(in, line)) {
        const auto fields = split(line, ',');
        REQUIRE(fields.size() == header.size());
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < header.size(); ++i) row[header[i]] = fields[i];
        rows[{std::stoi(row["L"]), std::stoi(row["B"]), std::stoi(row["K"]), std::stoi(row["drain_every"])}] = row;
    }
    return rows;
}

std::string three_dp(const std::string& field) { return three_decimals(std::stod(field)); }

const char* const kSeedBuffers = "1,2,4,6,8,10,12,14,16,18";

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

// Every element closed in order, one root: enough XML for a browser to open the file.
bool balanced_xml(const std::string& text, std::string& problem) {
    std::vector<std::string> open;
    size_t roots = 0;
    for (size_t at = text.find('<'); at != std::string::npos; at = text.find('<', at + 1)) {
        const size_t end = text.find('>', at);
        if (end == std::string::npos) return problem = "unterminated tag", false;
        const std::string tag = text.substr(at + 1, end - at - 1);
        if (tag.empty() || tag[0] == '?' || tag[0] == '!') continue;
        if (tag[0] == '/') {
            if (open.empty() || open.back() != tag.substr(1)) return problem = "stray </" + tag.substr(1) + ">", false;
            open.pop_back();
            continue;
        }
        if (open.empty()) ++roots;
        if (tag.back() == '/') continue;
        open.push_back(tag.substr(0, tag.find_first_of(" \n\t")));
    }
    if (!open.empty()) return problem = "<" + open.back() + "> never closed", false;
    if (roots != 1) return problem = std::to_string(roots) + " root elements", false;
    return true;
}

// The markers of one curve in the SVG (its <g class="series-points"> group).
std::string series_points(const std::string& svg, const std::string& label) {
    const auto at = svg.find("<g class=\"series-points\" data-label=\"" + label + "\"");
    if (at == std::string::npos) return "";
    return svg.substr(at, svg.find("</g>", at) - at);
}

}  // namespace

TEST_CASE("sweep draws seed 001's L = 8 curve from the model, as the seed prints it", "[sweep][seed001][model]") {
    // The whole of seed 001's table is checked on the model in test_model_tables.cpp and on the
    // RTL by the regression; the sweep shows one row end to end: CSV, table and plot.
    TempDir dir("seed001");
    const auto run = sweep({"--preset", "seed001", "--B", kSeedBuffers, "--no-rtl"}, dir.str());
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(run.err.empty());
    const auto rows = read_csv(dir / "sweep.csv");
    const auto& l8 = seeds::kSeed001Rows[2];
    REQUIRE(l8.stages == 8);
    for (size_t i = 0; i < seeds::kSeed001Buffers.size(); ++i) {
        const int b = seeds::kSeed001Buffers[i];
        const auto it = rows.find({8, b, 1, 1});
        INFO("B=" << b);
        REQUIRE(it != rows.end());
        CHECK(three_dp(it->second.at("throughput_model")) == l8.throughput[i]);
        CHECK(it->second.at("throughput_rtl").empty());
        CHECK(it->second.at("cycles") == "6000");
        CHECK(it->second.at("window_cycles") == "3000");
    }
    // The text table prints the seed's row as the seed prints it.
    CHECK(run.out.find("L=8  0.056  0.111  0.223  0.334  0.445  0.555  0.666  0.777  0.889  1.000  (RTT 18") !=
          std::string::npos);
    CHECK(run.out.find("wrote " + (dir / "sweep.csv").string()) != std::string::npos);
    CHECK(run.out.find("wrote " + (dir / "sweep.svg").string()) != std::string::npos);
}

TEST_CASE("sweep lays out seed 000's batching row with its closed form beside it", "[sweep][seed000][model]") {
    TempDir dir("seed000");
    const auto run = sweep({"--preset", "seed000", "--no-rtl"}, dir.str());
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    const auto rows = read_csv(dir / "sweep.csv");
    for (size_t i = 0; i < seeds::kSeed000Batches.size(); ++i) {
        const int k = seeds::kSeed000Batches[i];
        const auto it = rows.find({seeds::kSeed000Stages, seeds::kSeed000Buffer, k, 1});
        INFO("K=" << k);
        REQUIRE(it != rows.end());
        // (The measured throughputs are checked with seed 000's table in test_model_tables.cpp.)
        // The seed's closed form, before stranded credits, is in the CSV beside it.
        CHECK(three_dp(it->second.at("batched_estimate")) ==
              three_decimals(std::min(1.0, 12.0 / (10 + k - 1))));
    }
    // B < K is no link: those points are absent, not zero.
    CHECK(rows.count({4, 11, 12, 1}) == 0);
    CHECK(rows.count({4, 12, 12, 1}) == 1);
    size_t expected = 0;
    for (int k : seeds::kSeed000Batches) expected += 32 - k + 1;
    CHECK(rows.size() == expected);
    // Full rate from B = RTT + K - 1 on, as seed 000 says.
    CHECK(run.out.find("L=4 K=8") != std::string::npos);
    CHECK(run.out.find("full rate needs B >= RTT + K - 1 = 17; 1.000 from B = 17") != std::string::npos);
}

TEST_CASE("sweep plot is a standalone SVG with the bound and the knee", "[sweep][model]") {
    TempDir dir("svg");
    const auto run = sweep({"--preset", "seed001", "--no-rtl"}, dir.str());
    REQUIRE(run.exit_code == 0);
    const std::string svg = slurp((dir / "sweep.svg").string());
    REQUIRE(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
    CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
    std::string problem;
    CHECK(balanced_xml(svg, problem));
    INFO(problem);
    CHECK(count(svg, "<polyline") == 3);                       // one per curve: L = 1, 4, 8
    CHECK(count(svg, "<path class=\"bound\"") == 3);           // min(1, B / RTT), dashed, per L
    CHECK(count(svg, "stroke-dasharray") >= 3);
    CHECK(svg.find("B = RTT = 10") != std::string::npos);      // the knee is marked
    // Axes, ticks and labels; a legend.
    CHECK(svg.find("receiver buffer B") != std::string::npos);
    CHECK(svg.find("steady throughput") != std::string::npos);
    CHECK(svg.find(">0.5</text>") != std::string::npos);
    CHECK(svg.find(">32</text>") != std::string::npos);
    CHECK(svg.find("<g class=\"legend\">") != std::string::npos);
    // At B = RTT each curve reaches 1.0, one short of it does not.
    for (const auto& [label, rtt, below] : {std::tuple<std::string, int, std::string>{"L=1", 4, "0.750"},
                                            {"L=4", 10, "0.900"}, {"L=8", 18, "0.944"}}) {
        const std::string points = series_points(svg, label);
        INFO(label);
        REQUIRE_FALSE(points.empty());
        CHECK(count(points, "<circle") == 32);
        CHECK(points.find("data-x=\"" + std::to_string(rtt) + "\" data-y=\"1.000\"") != std::string::npos);
        CHECK(points.find("data-x=\"" + std::to_string(rtt - 1) + "\" data-y=\"" + below + "\"") != std::string::npos);
    }
    // No RTL: nothing is marked as checked.
    CHECK(count(svg, "class=\"checked\"") == 0);

    TempDir drain_dir("svg_drain");
    REQUIRE(sweep({"--preset", "seed001-drain", "--no-rtl"}, drain_dir.str()).exit_code == 0);
    const std::string drain_svg = slurp((drain_dir / "sweep.svg").string());
    CHECK(count(drain_svg, "<polyline") == 2);
    CHECK(count(drain_svg, "<path class=\"drain-cap\"") == 1);
    CHECK(drain_svg.find("drain cap 1/2 = 0.500") != std::string::npos);
}

TEST_CASE("sweep default RTL grid is the ends and the knee of each curve", "[sweep]") {
    std::vector<int> all;
    for (int b = 1; b <= 32; ++b) all.push_back(b);
    SweepCurve curve;
    curve.stages = 4;
    CHECK(default_rtl_grid(curve, all) == std::vector<int>{1, 9, 10, 11, 32});
    CHECK(default_rtl_grid(curve, {4, 10, 12}) == std::vector<int>{4, 10, 12});
    curve.batch = 8;   // the knee moves to RTT + K - 1 = 17, and B < K is no link
    CHECK(default_rtl_grid(curve, all) == std::vector<int>{8, 16, 17, 18, 32});
    curve.batch = 1;
    curve.drain_every = 2;   // a consumer at 1/2 needs about RTT / 2 credits
    CHECK(default_rtl_grid(curve, all) == std::vector<int>{1, 4, 5, 6, 32});
}

TEST_CASE("sweep refuses bad input with one line and writes nothing", "[sweep][bad-input]") {
    TempDir dir("bad");
    struct Case {
        std::vector<std::string> args;
        std::vector<std::string> mentions;
    };
    const std::vector<Case> cases = {
        {{"--B", "0..5"}, {"--B", "1..4096"}},
        {{"--B", "5..3"}, {"--B", "backwards"}},
        {{"--L", "0"}, {"--L", "1..1024"}},
        {{"--L", "4", "--K", "40"}, {"--K", "K <= B"}},
        {{"--drain-every", "0"}, {"--drain-every", "1..1000000"}},
        {{"--bogus"}, {"unknown option", "--bogus"}},
        {{"--preset", "seed999"}, {"--preset", "seed001, seed001-drain, seed000"}},
        {{"--cycles", "100"}, {"--cycles", "at least"}},
        {{"--rtl-grid", "40"}, {"--rtl-grid", "1..32"}},
        {{"--rtl-grid", "4", "--no-rtl"}, {"--rtl-grid", "--no-rtl"}},
        {{"--jobs", "0"}, {"--jobs", "1..64"}},
        {{"--B"}, {"--B", "needs a value"}},
        {{"--mutant", "no_such_bug", "--B", "4"}, {"--mutant", "rtl/mutants/"}},
    };
    for (const auto& c : cases) {
        std::string joined;
        for (const auto& a : c.args) joined += a + " ";
        INFO(joined);
        const auto run = sweep(c.args, dir.str());
        CHECK(run.exit_code == 2);
        CHECK(lines(run.err) == 1);
        CHECK(run.err.rfind("creditloop: ", 0) == 0);
        for (const auto& m : c.mentions) CHECK(run.err.find(m) != std::string::npos);
        CHECK(run.out.empty());
        CHECK_FALSE(fs::exists(dir.str()));
    }
}

TEST_CASE("sweep never overwrites its outputs without force", "[sweep][bad-input]") {
    TempDir dir("exists");
    fs::create_directories(dir.str());
    {
        std::ofstream(dir / "sweep.svg") << "keep me\n";
    }
    const auto run = sweep({"--B", "8..12", "--no-rtl"}, dir.str());
    CHECK(run.exit_code == 2);
    CHECK(lines(run.err) == 1);
    CHECK(run.err.find("--force") != std::string::npos);
    CHECK(run.err.find("sweep.svg") != std::string::npos);
    CHECK(slurp((dir / "sweep.svg").string()) == "keep me\n");
    CHECK_FALSE(fs::exists(dir / "sweep.csv"));

    const auto forced = sweep({"--B", "8..12", "--no-rtl", "--force"}, dir.str());
    CHECK(forced.exit_code == 0);
    CHECK(slurp((dir / "sweep.svg").string()).rfind("<svg", 0) == 0);
    // Written through a temporary and renamed: no temporary is left behind.
    size_t files = 0;
    for (const auto& entry : fs::directory_iterator(dir.str())) {
        ++files;
        CHECK(entry.path().extension() != ".tmp");
    }
    CHECK(files == 2);

    // --out naming a file is refused too.
    const auto onto_file = sweep({"--B", "8..12", "--no-rtl"}, (dir / "sweep.csv").string());
    CHECK(onto_file.exit_code == 2);
    CHECK(onto_file.err.find("not a directory") != std::string::npos);
}

TEST_CASE("sweep cross-checks the RTL against the model on a small grid", "[sweep][rtl][seed001][seed000]") {
    TempDir dir("rtl");
    const auto run = sweep({"--L", "4", "--B", "4,10,12"}, dir.str());
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    auto rows = read_csv(dir / "sweep.csv");
    const std::map<int, std::string> seed = {{4, "0.400"}, {10, "1.000"}, {12, "1.000"}};
    for (const auto& [b, printed] : seed) {
        const auto& row = rows.at({4, b, 1, 1});
        INFO("B=" << b);
        CHECK(three_dp(row.at("throughput_model")) == printed);
        CHECK(three_dp(row.at("throughput_rtl")) == printed);
        CHECK(row.at("sends_rtl") == row.at("sends_model"));
        CHECK(row.at("rtl_passed") == "true");
    }
    CHECK(run.out.find("RTL: 3 points on 3 verilated configurations") != std::string::npos);
    CHECK(run.out.find("0.400* 1.000* 1.000*") != std::string::npos);
    const std::string svg = slurp((dir / "sweep.svg").string());
    CHECK(count(svg, "class=\"checked\"") == 3);

    // Seed 000's K = 8 point, stranded credits and all, on the RTL.
    TempDir batch_dir("rtl_batch");
    const auto batch = sweep({"--L", "4", "--B", "12", "--K", "8"}, batch_dir.str());
    INFO(batch.out << batch.err);
    REQUIRE(batch.exit_code == 0);
    const auto batch_rows = read_csv(batch_dir / "sweep.csv");
    const auto& row = batch_rows.at({4, 12, 8, 1});
    CHECK(three_dp(row.at("throughput_rtl")) == "0.615");
    CHECK(three_dp(row.at("throughput_model")) == "0.615");
}

TEST_CASE("sweep fails and names the point where the RTL disagrees with the model", "[sweep][rtl][mutant]") {
    // Seed 004's leaking counter, on seed 004's loop (L = 2, B = 4: the mutants' own stimulus, so
    // its plugin is usually cached already).
    TempDir dir("mutant");
    const auto run = sweep({"--L", "2", "--B", "3,4", "--rtl-grid", "4", "--mutant", "credit_counter_ifelse_leak"},
                           dir.str());
    INFO(run.out << run.err);
    CHECK(run.exit_code == 1);
    CHECK(run.out.find("FAIL L=2 B=4 K=1 drain every 1: the RTL gives") != std::string::npos);
    CHECK(run.out.find("rerun: build/creditloop run --L 2 --B 4 --K 1") != std::string::npos);
    CHECK(run.out.find("--mutant credit_counter_ifelse_leak") != std::string::npos);
    // The outputs are still written, the failing point marked.
    const std::string svg = slurp((dir / "sweep.svg").string());
    CHECK(count(svg, "class=\"failed\"") == 1);
    const auto rows = read_csv(dir / "sweep.csv");
    const auto& row = rows.at({2, 4, 1, 1});
    CHECK(row.at("rtl_passed") == "false");
    CHECK(row.at("sends_rtl") != row.at("sends_model"));
}

TEST_CASE("sweep moves the knee by the late-return cycles, on the model and the RTL", "[sweep][late-return][rtl]") {
    // L = 4 with SYNC = 2 and FREE_DELAY = 1: RTT = 13, so the throughput is min(1, B / 13) and
    // the knee, where it first reaches 1, is B = 13.
    std::ostringstream out, err;
    const fs::path dir = fs::temp_directory_path() / "creditloop_sweep_late";
    fs::remove_all(dir);
    const int code = run_sweep({"--L", "4", "--B", "4..16", "--sync", "2", "--free-delay", "1", "--out", dir.string(),
                                "--no-progress"},
                               "creditloop", out, err);
    INFO(out.str() << err.str());
    CHECK(code == 0);
    CHECK(out.str().find("(RTT 13; 1.000 from B = 13)") != std::string::npos);
    const std::string csv = creditloop::testing::slurp((dir / "sweep.csv").string());
    for (int b = 4; b <= 16; ++b) {
        INFO("B = " << b);
        // L,B,K,drain,cycles,rtt: every row carries RTT 13 and the closed-form bound.
        CHECK(csv.find("\n4," + std::to_string(b) + ",1,1,6000,13,") != std::string::npos);
    }
    CHECK(csv.find(",2,1\n") != std::string::npos);   // the sync and free_delay columns
    fs::remove_all(dir);
}
