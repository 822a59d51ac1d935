package dev.ctk.fake.internal.select;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class LabelSelectorTest {

  private static final String NAME_RULE = "name part must consist of alphanumeric characters, '-', '_' or '.', and must"
      + " start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for"
      + " validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  private static final String VALUE_RULE = "a valid label must be an empty string or consist of alphanumeric characters,"
      + " '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or"
      + " '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

  @ParameterizedTest(name = "\"{0}\" prints as \"{1}\"")
  @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
      app=nginx                             | app=nginx
      app==nginx                            | app==nginx
      app!=nginx                            | app!=nginx
      "  app =  nginx  "                    | app=nginx
      tier in (web, cache)                  | tier in (cache,web)
      tier in (web,web)                     | tier in (web)
      tier notin (web)                      | tier notin (web)
      app                                   | app
      !canary                               | !canary
      b=2,a=1                               | a=1,b=2
      "x in (foo,,baz),y,z notin ()"        | "x in (,baz,foo),y,z notin ()"
      "x in (a,)"                           | "x in (,a)"
      "x in (,a)"                           | "x in (,a)"
      app=                                  | app=
      "app=,tier"                           | "app=,tier"
      replicas>1                            | replicas>1
      replicas<10                           | replicas<10
      in in (in)                            | in in (in)
      notin notin (notin)                   | notin notin (notin)
      app.kubernetes.io/name=web            | app.kubernetes.io/name=web
      """)
  void parses_to_kubes_canonical_form(String expression, String canonical) {
    assertThat(LabelSelector.parse(expression).toString()).isEqualTo(canonical);
  }

  static Stream<Arguments> matching() {
    return Stream.of(
        arguments("app=nginx", "app=nginx,tier=web", true),
        arguments("app=nginx", "app=apache", false),
        arguments("app=nginx", "", false),
        arguments("app==nginx", "app=nginx", true),
        arguments("app!=nginx", "app=apache", true),
        arguments("app!=nginx", "", true),
        arguments("app!=nginx", "app=nginx", false),
        arguments("tier in (web,cache)", "tier=cache", true),
        arguments("tier in (web,cache)", "tier=db", false),
        arguments("tier in (web,cache)", "", false),
        arguments("tier notin (web,cache)", "tier=db", true),
        arguments("tier notin (web,cache)", "", true),
        arguments("tier notin (web,cache)", "tier=web", false),
        arguments("app", "app=", true),
        arguments("app", "tier=web", false),
        arguments("!canary", "app=nginx", true),
        arguments("!canary", "canary=", false),
        arguments("app=", "app=", true),
        arguments("app=", "", false),
        arguments("x in ()", "x=", true),
        arguments("replicas>1", "replicas=2", true),
        arguments("replicas>1", "replicas=1", false),
        arguments("replicas>1", "replicas=two", false),
        arguments("replicas>1", "", false),
        arguments("replicas<10", "replicas=-2", true),
        arguments("app=nginx,tier in (web),!canary", "app=nginx,tier=web", true),
        arguments("app=nginx,tier in (web),!canary", "app=nginx,tier=web,canary=true", false),
        arguments("", "anything=goes", true));
  }

  @ParameterizedTest(name = "\"{0}\" on {1}: {2}")
  @MethodSource("matching")
  void matches_labels(String expression, String labels, boolean expected) {
    assertThat(LabelSelector.parse(expression).matches(labels(labels))).isEqualTo(expected);
  }

  static Stream<Arguments> rejected() {
    String longValue = "a".repeat(64);
    return Stream.of(
        arguments("app in nginx", "unable to parse requirement: found 'nginx' expected: '('"),
        arguments("app in", "unable to parse requirement: found '' expected: '('"),
        arguments("app in (a b)", "unable to parse requirement: found 'b', expected: ',' or ')'"),
        arguments("app in (a", "unable to parse requirement: found '', expected: ',' or ')'"),
        arguments("app in (=)", "unable to parse requirement: found '=', expected: ',', ')' or identifier"),
        arguments("app in (a,=)", "unable to parse requirement: found '=', expected: ',', or identifier"),
        arguments("app==(", "unable to parse requirement: found '(', expected: identifier"),
        arguments("a b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"),
        arguments("app>=1", "unable to parse requirement: found '=', expected: identifier"),
        arguments("!", "unable to parse requirement: found '', expected: identifier"),
        arguments("!(", "unable to parse requirement: found '(', expected: identifier"),
        arguments("app=nginx tier=web", "found 'tier', expected: ',' or 'end of string'"),
        arguments("!app=x", "found '=', expected: ',' or 'end of string'"),
        arguments("app=nginx,", "found '', expected: identifier after ','"),
        arguments("app=nginx,,b", "found ',', expected: identifier after ','"),
        arguments(",app", "found ',', expected: !, identifier, or 'end of string'"),
        arguments("=x", "found '=', expected: !, identifier, or 'end of string'"),
        arguments("app:nginx", "unable to parse requirement: <nil>: Invalid value: \"app:nginx\": " + NAME_RULE),
        arguments("-app=x", "unable to parse requirement: <nil>: Invalid value: \"-app\": " + NAME_RULE),
        arguments("a/b/c=x", "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a qualified name must consist"
            + " of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g."
            + " 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?"
            + "[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"),
        arguments("app.kubernetes_io/name=x", "unable to parse requirement: <nil>: Invalid value: \"app.kubernetes_io/name\":"
            + " prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.',"
            + " and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is"
            + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
        arguments("/name=x", "unable to parse requirement: <nil>: Invalid value: \"/name\": prefix part must be non-empty"),
        arguments("example.com/=x", "unable to parse requirement: <nil>: Invalid value: \"example.com/\": name part must be"
            + " non-empty; " + NAME_RULE),
        arguments("k" + "e".repeat(63) + "=x", "unable to parse requirement: <nil>: Invalid value: \"k" + "e".repeat(63)
            + "\": name part must be no more than 63 characters"),
        arguments("app=ngi*nx", "unable to parse requirement: values[0][app]: Invalid value: \"ngi*nx\": " + VALUE_RULE),
        arguments("app=" + longValue, "unable to parse requirement: values[0][app]: Invalid value: \"" + longValue
            + "\": must be no more than 63 characters"),
        arguments("tier in (b*, a*)", "unable to parse requirement: [values[0][tier]: Invalid value: \"a*\": " + VALUE_RULE
            + ", values[1][tier]: Invalid value: \"b*\": " + VALUE_RULE + "]"),
        arguments("replicas>abc", "unable to parse requirement: values[0]: Invalid value: \"abc\": for 'Gt', 'Lt'"
            + " operators, the value must be an integer"),
        arguments("replicas<", "unable to parse requirement: values[0]: Invalid value: \"\": for 'Gt', 'Lt' operators,"
            + " the value must be an integer"),
        arguments("replicas>1.5", "unable to parse requirement: values[0]: Invalid value: \"1.5\": for 'Gt', 'Lt'"
            + " operators, the value must be an integer"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rejected")
  void rejects_with_kubes_message(String expression, String message) {
    // WHEN
    SelectorException e = catchThrowableOfType(SelectorException.class, () -> LabelSelector.parse(expression));
    // THEN
    assertThat(e).as("expected a SelectorException for %s", expression).isNotNull();
    assertThat(e.getMessage()).isEqualTo(message);
  }

  @Test
  void null_and_blank_select_everything() {
    for (String expression : new String[] {null, "", "   ", " \t\n"}) {
      LabelSelector selector = LabelSelector.parse(expression);
      assertThat(selector.isEverything()).as("%s", expression).isTrue();
      assertThat(selector.matches(null)).isTrue();
      assertThat(selector).hasToString("");
    }
    assertThat(LabelSelector.everything().isEverything()).isTrue();
    assertThat(LabelSelector.parse("app").isEverything()).isFalse();
  }

  @Test
  void null_labels_are_no_labels() {
    assertThat(LabelSelector.parse("!app").matches(null)).isTrue();
    assertThat(LabelSelector.parse("app").matches(null)).isFalse();
  }

  @Test
  void tells_which_value_a_key_is_pinned_to() {
    LabelSelector selector = LabelSelector.parse("app=web,tier in (fe),team in (a,b),env!=prod,canary");
    assertThat(selector.exactMatch("app")).hasValue("web");
    assertThat(selector.exactMatch("tier")).hasValue("fe");
    assertThat(selector.exactMatch("team")).isEmpty();
    assertThat(selector.exactMatch("env")).isEmpty();
    assertThat(selector.exactMatch("canary")).isEmpty();
    assertThat(selector.exactMatch("missing")).isEmpty();
  }

  @Test
  void equal_selectors_have_the_same_canonical_form() {
    assertThat(LabelSelector.parse("b in (y,x),a=1")).isEqualTo(LabelSelector.parse("a=1, b in (x, y)"));
    assertThat(LabelSelector.parse("a=1")).isNotEqualTo(LabelSelector.parse("a==1"));
  }

  private static Map<String, String> labels(String text) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (!text.isEmpty()) {
      for (String pair : text.split(",")) {
        String[] kv = pair.split("=", 2);
        labels.put(kv[0], kv[1]);
      }
    }
    return labels;
  }
}
