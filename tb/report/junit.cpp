#include "junit.h"

namespace creditloop {

pugi::xml_node start_junit_suite(pugi::xml_document& doc) {
    auto declaration = doc.append_child(pugi::node_declaration);
    declaration.append_attribute("version") = "1.0";
    declaration.append_attribute("encoding") = "UTF-8";
    auto suite = doc.append_child("testsuites").append_child("testsuite");
    suite.append_attribute("name") = "creditloop.sim";
    return suite;
}

}  // namespace creditloop
