package dev.ctk.fake.internal.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.UnaryOperator;

/**
 * The one place that writes values as kube-apiserver's Go code prints them, so the fake's texts
 * ({@code Status.message}, field error causes, {@code managedFields}, annotations) match kube's word for word.
 *
 * <p>Kube prints one value differently in different places, and each way has its own method here:
 * <ul>
 *   <li>strings: {@link #quote} (Go's {@code %q}: field errors, names in messages) and {@link #jsonString}
 *       ({@code encoding/json}: {@code managedFields}, annotations, field errors from 1.34);</li>
 *   <li>float64 numbers: {@link #floatText} ({@code %v}) and {@link #jsonFloat} ({@code encoding/json});</li>
 *   <li>whole values: {@link #value} and {@link #crdValue} ({@code %v}), {@link #goSyntax} and
 *       {@link #stringSlice} ({@code %#v}), {@link #fieldErrorValue} (the value of a field error),
 *       {@link #jsonText} and {@link #crdJsonText} (JSON);</li>
 *   <li>kinds and types: {@link #jsonKind} ({@code encoding/json}'s "cannot unmarshal X"), {@link #typeName} and
 *       {@link #crdTypeName}.</li>
 * </ul>
 * The {@code crd} methods print custom resource values for the schema checks; they hold numbers as kube decodes a
 * custom resource ({@link #isInt64}), where {@link #value} and {@link #typeName}, used by the patch engines, keep
 * every integer literal whole.
 *
 * <p>Example: for the JSON {@code {"b":"<x>","a":1.5e6}}, {@link #value} gives {@code map[a:1.5e+06 b:<x>]},
 * {@link #goSyntax} gives {@code map[string]interface {}{"a":1.5e+06, "b":"<x>"}} and {@link #jsonText} gives
 * {@code {"a":1500000,"b":"\\u003cx\\u003e"}}.
 *
 * @since 0.1.0
 */
public final class GoText {

  /**
   * One way of printing a value: what it writes for nil, around maps and lists, between items, for a map key and for a
   * string, number or boolean. The walk over the value ({@link #print}) is the same for every way.
   */
  private record Printing(String nil, String mapOpen, String mapClose, String listOpen, String listClose,
      String separator, UnaryOperator<String> key, Function<JsonNode, String> scalar) {
  }

  private static final Printing VALUE = new Printing("<nil>", "map[", "]", "[", "]", " ", key -> key,
      node -> node.isTextual() ? node.textValue() : scalar(node, true));

  private static final Printing CRD_VALUE = new Printing("<nil>", "map[", "]", "[", "]", " ", key -> key,
      node -> node.isTextual() ? node.textValue() : scalar(node, false));

  private static final Printing GO_SYNTAX = new Printing("interface {}(nil)", "map[string]interface {}{", "}",
      "[]interface {}{", "}", ", ", GoText::quote,
      node -> node.isTextual() ? quote(node.textValue()) : scalar(node, false));

  private static final Printing ENCODING_JSON = new Printing("null", "{", "}", "[", "]", ",", GoText::jsonString,
      GoText::jsonScalar);

  private static final Printing CRD_JSON = new Printing("null", "{", "}", "[", "]", ",", GoText::jacksonString,
      GoText::crdJsonScalar);

  private GoText() {}

  /**
   * Go's {@code %q} ({@code strconv.Quote}): a double-quoted string with Go's escapes ({@code \"}, {@code \n},
   * {@code \x01}). Kube quotes strings so in field errors ({@code Invalid value: "web"}), in names inside messages
   * and in structured-merge-diff field paths.
   */
  public static String quote(String text) {
    return quoted(text, c -> c < 0x20 || c == 0x7f, "\\x%02x");
  }

  /**
   * Go's {@code encoding/json} of a string: {@code "}, {@code \\} and control characters escaped, and, as Go's
   * HTML-safe default, {@code <}, {@code >}, {@code &}, U+2028 and U+2029 as {@code \\u003c} and so on. Kube writes
   * strings so in {@code managedFields} keys, the {@code last-applied-configuration} annotation and, from 1.34, the
   * values of field errors: {@code jsonString("a<b")} is {@code "a\\u003cb"} where {@link #quote} gives
   * {@code "a<b"}.
   */
  public static String jsonString(String text) {
    return quoted(text, c -> c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029,
        "\\u%04x");
  }

  /** A double-quoted string: {@code "}, {@code \}, newline, return and tab escaped, the others in {@code format}. */
  private static String quoted(String text, IntPredicate escaped, String format) {
    StringBuilder out = new StringBuilder("\"");
    text.codePoints().forEach(c -> {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (escaped.test(c)) {
            out.append(String.format(format, c));
          } else {
            out.appendCodePoint(c);
          }
        }
      }
    });
    return out.append('"').toString();
  }

  /**
   * Whether kube holds this JSON number as an {@code int64}: an integer literal that fits. Kube decodes custom
   * resources so (any other number becomes a {@code float64}), which decides the texts of the {@code crd} methods and
   * the schema's {@code integer} type.
   */
  public static boolean isInt64(JsonNode node) {
    return node.isIntegralNumber() && node.canConvertToLong();
  }

  /**
   * Go's {@code %v} of a float64 ({@code strconv.FormatFloat(v, 'g', -1, 64)}): shortest digits, exponent form when
   * the exponent is below -4 or at least 6: {@code 1e+06}, {@code 123456}, {@code 1e-05}. Kube prints numbers so in
   * field errors and in structured-merge-diff field paths.
   */
  public static String floatText(double value) {
    if (value == 0) {
      return "0";
    }
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    BigDecimal decimal = shortestDecimal(value);
    int exponent = exponent(decimal);
    return exponent < -4 || exponent >= 6 ? exponentForm(decimal, true) : decimal.toPlainString();
  }

  /**
   * A float64 as Go's {@code encoding/json} writes it: plain decimals, exponent form below 1e-6 or from 1e21
   * ({@code 1000000}, {@code 1e-7}, {@code 1e+21}), as in {@code managedFields} and the
   * {@code last-applied-configuration} annotation.
   */
  public static String jsonFloat(double value) {
    if (value == 0) {
      return "0";
    }
    double abs = Math.abs(value);
    BigDecimal decimal = shortestDecimal(value);
    return abs >= 1e-6 && abs < 1e21 ? decimal.toPlainString() : exponentForm(decimal, false);
  }

  private static BigDecimal shortestDecimal(double value) {
    return new BigDecimal(Double.toString(value)).stripTrailingZeros();
  }

  private static int exponent(BigDecimal decimal) {
    return decimal.precision() - decimal.scale() - 1;
  }

  /** {@code d.ddde+XX}: {@code %e} writes two exponent digits or more, {@code encoding/json} a negative one bare. */
  private static String exponentForm(BigDecimal decimal, boolean padNegative) {
    String digits = decimal.unscaledValue().abs().toString();
    int exponent = exponent(decimal);
    StringBuilder text = new StringBuilder(decimal.signum() < 0 ? "-" : "").append(digits.charAt(0));
    if (digits.length() > 1) {
      text.append('.').append(digits, 1, digits.length());
    }
    int magnitude = Math.abs(exponent);
    text.append('e').append(exponent < 0 ? '-' : '+');
    if (magnitude < 10 && (exponent >= 0 || padNegative)) {
      text.append('0');
    }
    return text.append(magnitude).toString();
  }

  /**
   * The word {@code encoding/json} uses for a JSON value in "cannot unmarshal X into ...": {@code object},
   * {@code array}, {@code string}, {@code number}, {@code bool}, {@code null}. Kube answers so for patch and request
   * bodies of the wrong shape ({@code json: cannot unmarshal array into Go value of type map[string]interface {}}).
   */
  public static String jsonKind(JsonNode node) {
    if (node.isObject()) {
      return "object";
    }
    if (node.isArray()) {
      return "array";
    }
    if (node.isTextual()) {
      return "string";
    }
    if (node.isNumber()) {
      return "number";
    }
    if (node.isBoolean()) {
      return "bool";
    }
    return "null";
  }

  /**
   * {@code %s} of {@code reflect.TypeOf(v)} for a decoded JSON value, as the strategic merge patch errors print it
   * ({@code expected a map, but received a []interface {}}): every integer literal is an {@code int64}, a missing
   * value {@code %!s(<nil>)}.
   */
  public static String typeName(JsonNode node) {
    return node == null || node.isNull() || node.isMissingNode() ? "%!s(<nil>)" : typeOf(node, true);
  }

  /**
   * Go's {@code %T} of a custom resource value as kube decodes it ({@link #isInt64}): {@code int64},
   * {@code float64}, {@code string}, {@code map[string]interface {}}, {@code <nil>}. Kube prints it in the scale
   * subresource's accessor errors ({@code oops is of the type string}).
   */
  public static String crdTypeName(JsonNode node) {
    return node == null || node.isNull() ? "<nil>" : typeOf(node, false);
  }

  private static String typeOf(JsonNode node, boolean wholeIntegers) {
    if (node.isObject()) {
      return "map[string]interface {}";
    }
    if (node.isArray()) {
      return "[]interface {}";
    }
    if (node.isTextual()) {
      return "string";
    }
    if (node.isBoolean()) {
      return "bool";
    }
    return node.isIntegralNumber() && (wholeIntegers || node.canConvertToLong()) ? "int64" : "float64";
  }

  /**
   * Go's {@code %v} of a decoded JSON value as the strategic merge patch errors print it: {@code map[a:1 b:x]}
   * (keys sorted), {@code [x y]}, strings bare, {@code <nil>}; integer literals whole, other numbers as
   * {@link #floatText}.
   */
  public static String value(JsonNode node) {
    return print(node, VALUE);
  }

  /**
   * Go's {@code %v} of a custom resource value as kube decodes it: as {@link #value}, but an integer beyond
   * {@code int64} is a float64 ({@link #isInt64}). Kube prints it in the schema's {@code should be one of [a b]} and
   * the scale subresource's accessor errors.
   */
  public static String crdValue(JsonNode node) {
    return print(node, CRD_VALUE);
  }

  /** {@code %v} of a number or boolean. */
  private static String scalar(JsonNode node, boolean wholeIntegers) {
    if (node.isBoolean()) {
      return Boolean.toString(node.booleanValue());
    }
    if (node.isIntegralNumber() && (wholeIntegers || node.canConvertToLong())) {
      return node.bigIntegerValue().toString();
    }
    return floatText(node.doubleValue());
  }

  /**
   * Go's {@code %#v} of a custom resource value as kube decodes it: {@code map[string]interface {}{"a":1}} (keys
   * sorted), {@code []interface {}{"x", 1.5}}, {@code interface {}(nil)}. Kube prints maps and lists so in field
   * errors ({@link #fieldErrorValue}).
   */
  public static String goSyntax(JsonNode node) {
    return print(node, GO_SYNTAX);
  }

  /**
   * The value part of a field error ({@code field.Invalid} and its kin) for a custom resource value: numbers and
   * booleans with {@code %v} ({@code 3}, {@code 1.5}, {@code true}), strings with {@code %q}, a missing value as
   * {@code "null"}, maps and lists as {@link #goSyntax}.
   */
  public static String fieldErrorValue(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return quote("null");
    }
    if (node.isTextual()) {
      return quote(node.textValue());
    }
    return node.isNumber() || node.isBoolean() ? scalar(node, false) : goSyntax(node);
  }

  /**
   * Go's {@code %#v} of a {@code []string}: {@code []string{"a", "b"}}, or {@code []string(nil)} for {@code null}.
   * Kube prints string lists so in field errors up to 1.33 ({@code spec.clusterIPs}, {@code dryRun}).
   */
  public static String stringSlice(List<String> values) {
    if (values == null) {
      return "[]string(nil)";
    }
    return "[]string{" + String.join(", ", values.stream().map(GoText::quote).toList()) + "}";
  }

  /**
   * Compact JSON of a value as Go's {@code encoding/json} writes it: map keys sorted, strings as {@link #jsonString},
   * integer literals as written, other numbers as {@link #jsonFloat}, a missing value as {@code null}. Kube writes
   * values so in {@code managedFields} ({@code k:{"name":"web"}}, {@code v:80}) and the
   * {@code last-applied-configuration} annotation.
   */
  public static String jsonText(JsonNode node) {
    return print(node, ENCODING_JSON);
  }

  /**
   * The JSON the schema checks print for a custom resource value: the non-string values of an {@code enum} in
   * {@code supported values: "1", "{\"a\":true}"}, and the identity of a {@code set} list's items. The layout of
   * {@link #jsonText} (keys sorted), but every number as {@link #floatText} ({@code 1e+06}) and strings escaped as
   * Jackson escapes them ({@code <} left as it is). Kube's {@code json.Marshal} writes {@code 1000000} and
   * {@code \\u003c}; this text is kept as the fake has printed it.
   */
  public static String crdJsonText(JsonNode node) {
    return print(node, CRD_JSON);
  }

  /** {@code encoding/json} of a string, number or boolean. */
  private static String jsonScalar(JsonNode node) {
    if (node.isTextual()) {
      return jsonString(node.textValue());
    }
    if (node.isIntegralNumber()) {
      return node.bigIntegerValue().toString();
    }
    return node.isNumber() ? jsonFloat(node.doubleValue()) : Boolean.toString(node.booleanValue());
  }

  /** {@link #crdJsonText}'s string, number or boolean. */
  private static String crdJsonScalar(JsonNode node) {
    if (node.isTextual()) {
      return jacksonString(node.textValue());
    }
    return node.isNumber() ? floatText(node.doubleValue()) : node.toString();
  }

  /** A string as Jackson writes it in JSON ({@code <}, {@code >} and {@code &} left as they are). */
  private static String jacksonString(String text) {
    return new TextNode(text).toString();
  }

  private static String print(JsonNode node, Printing printing) {
    StringBuilder out = new StringBuilder();
    print(out, node, printing);
    return out.toString();
  }

  private static void print(StringBuilder out, JsonNode node, Printing printing) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      out.append(printing.nil());
    } else if (node.isObject()) {
      List<String> keys = sortedKeys(node);
      out.append(printing.mapOpen());
      for (int i = 0; i < keys.size(); i++) {
        out.append(i == 0 ? "" : printing.separator()).append(printing.key().apply(keys.get(i))).append(':');
        print(out, node.get(keys.get(i)), printing);
      }
      out.append(printing.mapClose());
    } else if (node.isArray()) {
      out.append(printing.listOpen());
      for (int i = 0; i < node.size(); i++) {
        out.append(i == 0 ? "" : printing.separator());
        print(out, node.get(i), printing);
      }
      out.append(printing.listClose());
    } else {
      out.append(printing.scalar().apply(node));
    }
  }

  private static List<String> sortedKeys(JsonNode object) {
    List<String> keys = new ArrayList<>();
    object.fieldNames().forEachRemaining(keys::add);
    keys.sort(null);
    return keys;
  }
}
