#include "own_mutant.h"

#include <filesystem>
#include <vector>

namespace fs = std::filesystem;

namespace creditloop {

Problem map_for_mutant(const std::string& mutant, const std::string& counter_file, const std::string& link_map,
                           const std::string& rtl_dir, std::string& option) {
    std::error_code ec;
    if (!fs::is_regular_file(mutant, ec))
        return "--mutant " + mutant + ": no such file: give the path of a .mutant patch of your RTL, or a mutant of "
                                      "rtl/mutants/ by name, without .mutant";
    std::vector<std::string> maps;
    if (fs::path(counter_file).extension() == ".json") maps.push_back("--counter");
    if (!link_map.empty()) maps.push_back("--link");
    if (fs::path(rtl_dir).extension() == ".json") maps.push_back("--rtl");
    if (maps.empty())
        return "--mutant " + mutant + " is a patch of your own RTL: give it with the map of the file it patches "
                                      "(--counter MAP, --link MAP or --rtl MAP); a mutant of rtl/mutants/ goes by name "
                                      "(--mutant credit_counter_ifelse_leak)";
    if (maps.size() > 1)
        return "--mutant " + mutant + " patches a file of one map, and " + maps[0] + " and " + maps[1] +
               " both give one: run it with the map of the file it patches alone";
    option = maps.front();
    return std::nullopt;
}

}  // namespace creditloop
