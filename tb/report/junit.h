// The JUnit file creditloop writes (creditloop regress) and rebuilds from shards (creditloop
// merge): one declaration of its frame, so both write the same document around their testcases.
#pragma once

#include <pugixml.hpp>

namespace creditloop {

// The XML declaration and <testsuites><testsuite name="creditloop.sim"> in `doc`, which must be
// empty; returns the suite, for its counts, properties and testcases.
pugi::xml_node start_junit_suite(pugi::xml_document& doc);

}  // namespace creditloop
