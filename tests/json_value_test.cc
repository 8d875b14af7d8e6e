// JsonValue: what chatty's files and reports are written and read back with.
#include "runtime/base/json_value.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "test_util.h"

namespace chatty {
namespace {

using chatty::testing::error_of;
using ::testing::HasSubstr;

TEST(Json, ParsesEveryKindAndDumpsItBack) {
  const std::string text = R"({"a":[1,-2.5,3e2,true,false,null],"b":{"c":"x\"y\\z\n"},"d":[],"e":{}})";
  const JsonValue j = parse_json(text);
  EXPECT_EQ(j.dump(), R"({"a":[1,-2.5,300,true,false,null],"b":{"c":"x\"y\\z\n"},"d":[],"e":{}})");
  EXPECT_EQ(j.find("a")->items().size(), 6u);
  EXPECT_EQ(j.find("a")->items()[1].as_number(), -2.5);
  EXPECT_EQ(j.find("b")->find("c")->as_string(), "x\"y\\z\n");
  EXPECT_EQ(j.find("missing"), nullptr);
  EXPECT_EQ(parse_json(j.dump(2)).dump(), j.dump());
}

TEST(Json, KeepsInsertionOrderAndReplacesOnSet) {
  JsonValue o = JsonValue::object();
  o.set("z", 1);
  o.set("a", "s");
  o.set("z", 2);
  EXPECT_EQ(o.dump(), R"({"z":2,"a":"s"})");
  EXPECT_EQ(o.dump(2), "{\n  \"z\": 2,\n  \"a\": \"s\"\n}");
}

TEST(Json, NumbersReadBackToTheSameDouble) {
  for (double x : {0.1, 1.0 / 3, 6.02214076e23, -1e-300, 123456789012345.0, 9007199254740993.0}) {
    JsonValue a = JsonValue::array();
    a.push(x);
    EXPECT_EQ(parse_json(a.dump()).items()[0].as_number(), x) << a.dump();
  }
  EXPECT_EQ(JsonValue(uint64_t(80) << 30).dump(), "85899345920");
  EXPECT_EQ(JsonValue(std::numeric_limits<double>::infinity()).dump(), "null");
  EXPECT_TRUE(std::signbit(parse_json(JsonValue(-0.0).dump()).as_number()));
}

// Integers keep their exact value past 2^53, made or read (a vertex id of
// the user's file can be any 64-bit integer).
TEST(Json, IntegersAreExactTo64Bits) {
  const uint64_t big = 18446744073709551615u;
  EXPECT_EQ(JsonValue(big).dump(), "18446744073709551615");
  EXPECT_EQ(JsonValue(uint64_t(9007199254740993u)).dump(), "9007199254740993");
  EXPECT_EQ(JsonValue(INT64_MIN).dump(), "-9223372036854775808");
  EXPECT_EQ(parse_json("[18446744073709551615]").dump(), "[18446744073709551615]");
  EXPECT_EQ(parse_json("9007199254740993").as_int(), int64_t(9007199254740993));
  EXPECT_EQ(parse_json("-9223372036854775808").as_int(), INT64_MIN);
  EXPECT_THROW(parse_json("9223372036854775808").as_int(), Error);
  EXPECT_THROW(parse_json("18446744073709551616").as_int(), Error);  // past 64 bits: a double
  EXPECT_EQ(parse_json("184467440737095516160").as_number(), 184467440737095516160.0);
  EXPECT_THROW(parse_json("-3").as_int("n", 0, 10), Error);
}

// A float prints as its own shortest decimal, which reads back as that float.
TEST(Json, FloatsDumpAsTheirShortestDecimal) {
  EXPECT_EQ(JsonValue(0.1f).dump(), "0.1");
  EXPECT_EQ(JsonValue(0.023267422f).dump(), "0.023267422");
  EXPECT_EQ(JsonValue(float(1e-30)).dump(), "1e-30");
  EXPECT_EQ(JsonValue(std::numeric_limits<float>::quiet_NaN()).dump(), "null");
  for (float x : {0.1f, 1.0f / 3, 3.4e38f, -7.5e-45f}) EXPECT_EQ(float(parse_json(JsonValue(x).dump()).as_number()), x);
}

TEST(Json, UnicodeEscapesBecomeUtf8) {
  EXPECT_EQ(parse_json(R"("\u00e9\u20ac\ud83d\ude00\/")").as_string(), "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80/");
  EXPECT_EQ(JsonValue(std::string("a\x01")).dump(), "\"a\\u0001\"");
}

TEST(Json, MalformedTextIsRefusedWithWhere) {
  for (const char* bad :
       {"",    "{",   "[1,]",       "{\"a\" 1}", "{\"a\":1,}", "[1] 2",       "01",           "1.",
        "-",   "+1",  "1e",         "\"abc",     "\"\\x\"",    "\"\\ud800\"", "\"\\udc00x\"", "\"\\u12\"",
        "tru", "nul", "[\"a\nb\"]", "{1:2}",     "1e999"})
    EXPECT_THAT(error_of([&] { parse_json(bad); }), HasSubstr("at byte")) << bad;
  EXPECT_THAT(error_of([] { parse_json(std::string(513, '[') + std::string(513, ']')); }), HasSubstr("deeper"));
  EXPECT_NO_THROW(parse_json(std::string(512, '[') + "1" + std::string(512, ']')));
}

TEST(Json, GettersFallBackOnlyWhereAbsent) {
  const JsonValue j = parse_json(R"({"n":4,"s":"x","b":true,"z":null,"f":2.5})");
  EXPECT_EQ(j.get("n", 0), 4);
  EXPECT_EQ(j.get("missing", 7), 7);
  EXPECT_EQ(j.get("z", 9), 9);
  EXPECT_EQ(j.get("s", ""), "x");
  EXPECT_TRUE(j.get("b", false));
  EXPECT_THAT(error_of([&] { j.get("s", 0); }), HasSubstr("s is a string, not a number"));
  EXPECT_THAT(error_of([&] { j.get("f", 0); }), HasSubstr("not a whole number"));
  EXPECT_THAT(error_of([&] { j.find("n")->items("n"); }), HasSubstr("n is a number, not an array"));
  EXPECT_TRUE(j.find("z")->items().empty());  // null: no items
  // Past what the type holds: refused, not wrapped.
  EXPECT_THAT(error_of([] { parse_json("9223372036854775808").as_int(); }), HasSubstr("not a whole number"));
  EXPECT_THAT(error_of([] { parse_json(R"({"k":3000000000})").get("k", 0); }), HasSubstr("not a whole number"));
  EXPECT_EQ(parse_json(R"({"k":3000000000})").get("k", int64_t(0)), 3000000000);
}

}  // namespace
}  // namespace chatty
