package dev.ctk.fake.internal.select;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed label selector in kube's syntax ({@code ?labelSelector=}): {@code key=value},
 * {@code key==value}, {@code key!=value}, {@code key in (a,b)}, {@code key notin (a,b)},
 * {@code key} (exists), {@code !key} (does not exist), {@code key>1}, {@code key<1}; a comma means
 * AND. Parsing follows kube's lexer and grammar, validates keys and values with kube's rules, and
 * fails with kube's text (see {@link SelectorException}).
 *
 * <pre>{@code
 * LabelSelector selector = LabelSelector.parse("app=nginx,tier in (web,cache),!canary");
 * selector.matches(Map.of("app", "nginx", "tier", "web"));   // true
 * selector.toString();                                        // "!canary,app=nginx,tier in (cache,web)"
 * }</pre>
 *
 * @since 0.1.0
 */
public final class LabelSelector {

  /** A selection operator with the text kube prints for it. */
  enum Operator {
    EQUALS("="),
    DOUBLE_EQUALS("=="),
    NOT_EQUALS("!="),
    IN(" in "),
    NOT_IN(" notin "),
    EXISTS(""),
    DOES_NOT_EXIST(""),
    GREATER_THAN(">"),
    LESS_THAN("<");

    final String text;

    Operator(String text) {
      this.text = text;
    }
  }

  /** One {@code key op values} term; values are sorted and distinct, as kube keeps them. */
  static final class Requirement {
    final String key;
    final Operator operator;
    final List<String> values;

    Requirement(String key, Operator operator, List<String> values) {
      this.key = key;
      this.operator = operator;
      this.values = List.copyOf(values);
    }

    boolean matches(Map<String, String> labels) {
      boolean has = labels.containsKey(key);
      String value = labels.get(key);
      switch (operator) {
        case IN:
        case EQUALS:
        case DOUBLE_EQUALS:
          return has && values.contains(value);
        case NOT_IN:
        case NOT_EQUALS:
          return !has || !values.contains(value);
        case EXISTS:
          return has;
        case DOES_NOT_EXIST:
          return !has;
        case GREATER_THAN:
        case LESS_THAN:
          Long actual = has ? parseInteger(value) : null;
          Long bound = values.size() == 1 ? parseInteger(values.get(0)) : null;
          if (actual == null || bound == null) {
            return false;
          }
          return operator == Operator.GREATER_THAN ? actual > bound : actual < bound;
        default:
          return false;
      }
    }

    @Override
    public String toString() {
      switch (operator) {
        case EXISTS:
          return key;
        case DOES_NOT_EXIST:
          return "!" + key;
        case IN:
        case NOT_IN:
          return key + operator.text + "(" + String.join(",", values) + ")";
        default:
          return key + operator.text + String.join(",", values);
      }
    }
  }

  private static final LabelSelector EVERYTHING = new LabelSelector(List.of());

  private final List<Requirement> requirements;

  LabelSelector(List<Requirement> requirements) {
    List<Requirement> sorted = new ArrayList<>(requirements);
    sorted.sort(Comparator.comparing(r -> r.key));
    this.requirements = Collections.unmodifiableList(sorted);
  }

  /**
   * Parses a selector as kube-apiserver parses {@code ?labelSelector=}.
   *
   * @param expression the selector; {@code null} or blank selects everything
   * @return the selector
   * @throws SelectorException with kube's text, e.g. {@code unable to parse requirement: <nil>:
   *     Invalid value: "a b": name part must consist of ...}
   */
  public static LabelSelector parse(String expression) throws SelectorException {
    if (expression == null || expression.isBlank()) {
      return EVERYTHING;
    }
    List<Requirement> parsed = new LabelSelectorParser(expression).parse();
    return parsed.isEmpty() ? EVERYTHING : new LabelSelector(parsed);
  }

  /**
   * The selector that matches every object.
   *
   * @return the empty selector
   */
  public static LabelSelector everything() {
    return EVERYTHING;
  }

  /**
   * Whether labels satisfy every requirement.
   *
   * @param labels an object's {@code metadata.labels}; {@code null} means none
   * @return {@code true} when all requirements hold
   */
  public boolean matches(Map<String, String> labels) {
    Map<String, String> present = labels == null ? Map.of() : labels;
    for (Requirement requirement : requirements) {
      if (!requirement.matches(present)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether this selector restricts nothing.
   *
   * @return {@code true} for an empty selector
   */
  public boolean isEverything() {
    return requirements.isEmpty();
  }

  /**
   * The value a label must have for an object to match, when the selector pins one
   * ({@code key=v}, {@code key==v} or {@code key in (v)}), as kube's {@code RequiresExactMatch}.
   *
   * @param key the label key
   * @return the required value, or empty
   */
  public Optional<String> exactMatch(String key) {
    for (Requirement requirement : requirements) {
      if (requirement.key.equals(key)) {
        boolean pins = requirement.operator == Operator.EQUALS
            || requirement.operator == Operator.DOUBLE_EQUALS
            || requirement.operator == Operator.IN;
        return pins && requirement.values.size() == 1 ? Optional.of(requirement.values.get(0)) : Optional.empty();
      }
    }
    return Optional.empty();
  }

  /**
   * kube's canonical form: requirements sorted by key, values sorted, e.g.
   * {@code app=nginx,tier in (cache,web)}.
   *
   * @return the canonical selector text; {@code ""} for {@link #everything()}
   */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    requirements.forEach(r -> parts.add(r.toString()));
    return String.join(",", parts);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof LabelSelector && other.toString().equals(toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  /** Go's {@code strconv.ParseInt(s, 10, 64)}: optional sign, decimal digits, 64-bit range. */
  static Long parseInteger(String text) {
    String digits = text.startsWith("+") || text.startsWith("-") ? text.substring(1) : text;
    if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return null;
    }
    try {
      return Long.parseLong(text.startsWith("+") ? digits : text);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
