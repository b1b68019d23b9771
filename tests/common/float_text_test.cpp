// readFloatText (common/float_text.hpp): numbers beyond the float range are told apart from the
// inf and 0 that rounding them makes; hexadecimal text is not read as a number.
#include "common/float_text.hpp"

#include <gtest/gtest.h>

namespace flocklife {
namespace {

TEST(FloatText, TellsOverflowAndUnderflowFromTheValuesTheyRoundTo) {
  EXPECT_TRUE(readFloatText("0.25").number);
  EXPECT_EQ(readFloatText(" 0.25 ").value, 0.25);
  EXPECT_TRUE(readFloatText(" 0.25 ").number);
  for (const char* over : {"1e39", "-3.5e38", "1e400", "-1e400"}) {
    const FloatText f = readFloatText(over);
    EXPECT_TRUE(f.number && f.overflows && !f.underflows) << over;
  }
  for (const char* under : {"1e-50", "-1e-50", "1e-400", "-1e-400"}) {
    const FloatText f = readFloatText(under);
    EXPECT_TRUE(f.number && f.underflows && !f.overflows) << under;
  }
  for (const char* fine : {"0", "-0", "3.4e38", "1e-40", "inf", "nan"}) {  // 1e-40: a float subnormal
    const FloatText f = readFloatText(fine);
    EXPECT_TRUE(f.number && !f.overflows && !f.underflows) << fine;
  }
  for (const char* notOne : {"", "abc", "1e39x", "0.1 2", "1,5"}) EXPECT_FALSE(readFloatText(notOne).number) << notOne;
  for (const char* hex : {"0x10", " -0X1p3", "+0x0", "\v0x10", "\f0x.8", "\n0x1"}) {  // strtod reads them: "0x10" was 16
    const FloatText f = readFloatText(hex);
    EXPECT_FALSE(f.number) << hex;
    EXPECT_TRUE(f.hexadecimal) << hex;
  }
  for (const char* decimal : {"0", "-0", "0.5", "+0e1", "00x", "0x", "0xg"}) EXPECT_FALSE(readFloatText(decimal).hexadecimal) << decimal;
  EXPECT_FALSE(readFloatText("0x").number);  // strtod stops at the x
}

}  // namespace
}  // namespace flocklife
