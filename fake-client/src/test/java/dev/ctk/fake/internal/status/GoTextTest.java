package dev.ctk.fake.internal.status;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every way GoText prints a value, with the texts Go prints for the same value. */
class GoTextTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void quote_isGosPercentQ() {
    assertThat(GoText.quote("web")).isEqualTo("\"web\"");
    assertThat(GoText.quote("a\"b\\c\n\r\t\u0001\u007f<é>")).isEqualTo("\"a\\\"b\\\\c\\n\\r\\t\\x01\\x7f<é>\"");
  }

  @Test
  void jsonString_isEncodingJson_withItsHtmlSafeEscapes() {
    assertThat(GoText.jsonString("web")).isEqualTo("\"web\"");
    assertThat(GoText.jsonString("a\"b\\c\n\r\t\u0001<>&\u2028\u2029é"))
        .isEqualTo("\"a\\\"b\\\\c\\n\\r\\t\\u0001\\u003c\\u003e\\u0026\\u2028\\u2029é\"");
  }

  @Test
  void floatText_isGosPercentV_exponentBelowMinus4OrFrom6() {
    assertThat(List.of(GoText.floatText(1e6), GoText.floatText(123456.0), GoText.floatText(0.5),
        GoText.floatText(-2.25), GoText.floatText(1e-5), GoText.floatText(10.0), GoText.floatText(0.0001),
        GoText.floatText(123456789.0), GoText.floatText(-1.5e-7), GoText.floatText(1e21), GoText.floatText(1e100)))
        .containsExactly("1e+06", "123456", "0.5", "-2.25", "1e-05", "10", "0.0001", "1.23456789e+08", "-1.5e-07",
            "1e+21", "1e+100");
    assertThat(List.of(GoText.floatText(0.0), GoText.floatText(Double.NaN), GoText.floatText(Double.POSITIVE_INFINITY),
        GoText.floatText(Double.NEGATIVE_INFINITY))).containsExactly("0", "NaN", "+Inf", "-Inf");
  }

  @Test
  void jsonFloat_isEncodingJson_exponentBelow1eMinus6OrFrom1e21() {
    assertThat(List.of(GoText.jsonFloat(1e6), GoText.jsonFloat(0.5), GoText.jsonFloat(-2.25),
        GoText.jsonFloat(0.000001), GoText.jsonFloat(1e-7), GoText.jsonFloat(-2.5e-8), GoText.jsonFloat(1e20),
        GoText.jsonFloat(1.5e21), GoText.jsonFloat(1e100), GoText.jsonFloat(0.0)))
        .containsExactly("1000000", "0.5", "-2.25", "0.000001", "1e-7", "-2.5e-8", "100000000000000000000",
            "1.5e+21", "1e+100", "0");
  }

  @Test
  void stringSlice_isGosPercentSharpV_ofAStringSlice() {
    assertThat(GoText.stringSlice(List.of("10.96.0.10", "a\"b"))).isEqualTo("[]string{\"10.96.0.10\", \"a\\\"b\"}");
    assertThat(GoText.stringSlice(List.of())).isEqualTo("[]string{}");
    assertThat(GoText.stringSlice(null)).isEqualTo("[]string(nil)");
  }

  @Test
  void jsonText_sortsKeys_keepsIntegers_writesFloatsAndStringsAsEncodingJson() {
    JsonNode value = json("""
        {"b":"<x>","a":[1,1.5,1e6,1e21,true,null,{"z":12345678901234567890,"y":"\\u2028"}]}""");

    assertThat(GoText.jsonText(value))
        .isEqualTo("{\"a\":[1,1.5,1000000,1e+21,true,null,{\"y\":\"\\u2028\",\"z\":12345678901234567890}],"
            + "\"b\":\"\\u003cx\\u003e\"}");
    assertThat(GoText.jsonText(null)).isEqualTo("null");
    assertThat(GoText.jsonText(json("\"web\""))).isEqualTo("\"web\"");
  }

  @Test
  void value_isGosPercentV_mapsSortedStringsBare() {
    assertThat(GoText.value(json("{\"b\":[\"x y\",2,1.5e6,null,false],\"a\":{\"c\":0.25}}")))
        .isEqualTo("map[a:map[c:0.25] b:[x y 2 1.5e+06 <nil> false]]");
    assertThat(GoText.value(null)).isEqualTo("<nil>");
    // an integer beyond int64 keeps its digits here (crdValue prints it as the float64 kube's decoder makes of it)
    assertThat(GoText.value(json("12345678901234567890"))).isEqualTo("12345678901234567890");
  }

  @Test
  void crdValue_isPercentV_withIntegersBeyondInt64AsFloat64() {
    assertThat(GoText.crdValue(json("{\"b\":[\"x y\",2,9223372036854775808,null,false],\"a\":1.5e6}")))
        .isEqualTo("map[a:1.5e+06 b:[x y 2 9.223372036854776e+18 <nil> false]]");
    assertThat(GoText.crdValue(null)).isEqualTo("<nil>");
  }

  @Test
  void goSyntax_isGosPercentSharpV_ofADecodedValue() {
    assertThat(GoText.goSyntax(json("{\"b\":[\"x\",1.5,true,null],\"a\":{\"c\":1}}")))
        .isEqualTo("map[string]interface {}{\"a\":map[string]interface {}{\"c\":1}, "
            + "\"b\":[]interface {}{\"x\", 1.5, true, interface {}(nil)}}");
    assertThat(GoText.goSyntax(null)).isEqualTo("interface {}(nil)");
    assertThat(GoText.goSyntax(json("1e6"))).isEqualTo("1e+06");
  }

  @Test
  void fieldErrorValue_quotesStrings_printsScalarsPlain_andMapsAndListsAsGoSyntax() {
    assertThat(List.of(GoText.fieldErrorValue(json("3")), GoText.fieldErrorValue(json("1.5")),
        GoText.fieldErrorValue(json("1e6")), GoText.fieldErrorValue(json("true")),
        GoText.fieldErrorValue(json("\"web\"")), GoText.fieldErrorValue(json("null")), GoText.fieldErrorValue(null),
        GoText.fieldErrorValue(json("[1,\"a\"]"))))
        .containsExactly("3", "1.5", "1e+06", "true", "\"web\"", "\"null\"", "\"null\"",
            "[]interface {}{1, \"a\"}");
  }

  @Test
  void crdJsonText_sortsKeys_butPrintsNumbersAsPercentV_andStringsAsJacksonDoes() {
    // kube's json.Marshal would write 1000000 and "\u003cx\u003e"; the schema checks' text is kept as it was
    assertThat(GoText.crdJsonText(json("{\"b\":\"<x>\",\"a\":[1,1.5,1000000,true,null]}")))
        .isEqualTo("{\"a\":[1,1.5,1e+06,true,null],\"b\":\"<x>\"}");
  }

  @Test
  void isInt64_isAnIntegerLiteralThatFits() {
    assertThat(List.of(GoText.isInt64(json("1")), GoText.isInt64(json("-9223372036854775808")),
        GoText.isInt64(json("9223372036854775808")), GoText.isInt64(json("1.0")), GoText.isInt64(json("\"1\""))))
        .containsExactly(true, true, false, false, false);
  }

  @Test
  void crdTypeName_isGosPercentT_withIntegersBeyondInt64AsFloat64() {
    assertThat(List.of(GoText.crdTypeName(json("{}")), GoText.crdTypeName(json("[]")),
        GoText.crdTypeName(json("\"x\"")), GoText.crdTypeName(json("true")), GoText.crdTypeName(json("1")),
        GoText.crdTypeName(json("9223372036854775808")), GoText.crdTypeName(json("1.5")),
        GoText.crdTypeName(json("null")), GoText.crdTypeName(null)))
        .containsExactly("map[string]interface {}", "[]interface {}", "string", "bool", "int64", "float64",
            "float64", "<nil>", "<nil>");
  }

  @Test
  void typeName_isTheGoTypeOfTheDecodedValue_asPercentS() {
    assertThat(List.of(GoText.typeName(json("{}")), GoText.typeName(json("[]")), GoText.typeName(json("\"x\"")),
        GoText.typeName(json("true")), GoText.typeName(json("1")), GoText.typeName(json("12345678901234567890")),
        GoText.typeName(json("1.5")), GoText.typeName(json("null")), GoText.typeName(null)))
        .containsExactly("map[string]interface {}", "[]interface {}", "string", "bool", "int64", "int64", "float64",
            "%!s(<nil>)", "%!s(<nil>)");
  }

  @Test
  void jsonKind_isTheWordOfEncodingJsonsUnmarshalErrors() {
    assertThat(List.of(GoText.jsonKind(json("{}")), GoText.jsonKind(json("[]")), GoText.jsonKind(json("\"x\"")),
        GoText.jsonKind(json("1.5")), GoText.jsonKind(json("true")), GoText.jsonKind(json("null"))))
        .containsExactly("object", "array", "string", "number", "bool", "null");
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
