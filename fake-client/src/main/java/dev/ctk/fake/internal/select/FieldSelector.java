package dev.ctk.fake.internal.select;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A parsed field selector ({@code ?fieldSelector=}): terms {@code field=value},
 * {@code field==value} and {@code field!=value} joined by commas (AND), {@code \,}, {@code \=} and
 * {@code \\} escaping those characters in values. Parsing follows kube's {@code fields} package and
 * then checks every field against what the kind supports, failing with kube's texts.
 *
 * <pre>{@code
 * FieldLabels pod = podType.fieldLabels();   // the Pod's row of BuiltinKinds
 * FieldSelector selector = FieldSelector.parse("status.phase=Running,spec.nodeName!=node-1", pod);
 * selector.matches(pod);   // reads status.phase and spec.nodeName from the JSON object
 * FieldSelector.parse("spec.foo=x", pod);   // SelectorException: field label not supported: spec.foo
 * }</pre>
 *
 * @since 0.1.0
 */
public final class FieldSelector {

  private static final class Term {
    final String field;
    final boolean negated;
    final String value;

    Term(String field, boolean negated, String value) {
      this.field = field;
      this.negated = negated;
      this.value = value;
    }

    @Override
    public String toString() {
      String escaped = value.replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=");
      return field + (negated ? "!=" : "=") + escaped;
    }
  }

  private static final FieldSelector EVERYTHING = new FieldSelector(List.of(), FieldLabels.of(Set.of()));

  private final List<Term> terms;
  private final FieldLabels labels;

  private FieldSelector(List<Term> terms, FieldLabels labels) {
    this.terms = Collections.unmodifiableList(terms);
    this.labels = labels;
  }

  /**
   * Parses a selector whose fields must be among {@code supportedFields} (read from the object as
   * dotted paths); any other field fails with {@code field label not supported: <field>}.
   *
   * @param expression the selector; {@code null} or empty selects everything
   * @param supportedFields the fields the caller can match, e.g. {@code metadata.name}
   * @return the selector
   * @throws SelectorException with kube's text for a malformed selector or an unsupported field
   */
  public static FieldSelector parse(String expression, Set<String> supportedFields) throws SelectorException {
    return parse(expression, FieldLabels.of(supportedFields));
  }

  /**
   * Parses a selector for a kind with kube's per-kind rules, as its row in
   * {@code dev.ctk.fake.internal.registry.BuiltinKinds} describes them: {@code metadata.name} and
   * {@code metadata.namespace} everywhere (not {@code metadata.namespace} on Node and Namespace), plus the kind's
   * own fields (Pod {@code status.phase}, {@code spec.nodeName}, ...; Secret {@code type}; Job
   * {@code status.successful}; ...) and kube's wording for unsupported ones, which differs between kinds with their
   * own rules and the others (custom resources, apps/v1 kinds).
   *
   * @param expression the selector; {@code null} or empty selects everything
   * @param labels the kind's field labels
   * @return the selector
   * @throws SelectorException with kube's text for a malformed selector or an unsupported field
   */
  public static FieldSelector parse(String expression, FieldLabels labels) throws SelectorException {
    if (expression == null || expression.isEmpty()) {
      return EVERYTHING;
    }
    List<String> parts = splitTerms(expression);
    Collections.sort(parts);
    List<Term> parsed = new ArrayList<>();
    for (String part : parts) {
      if (part.isEmpty()) {
        continue;
      }
      Term term = splitTerm(part);
      if (term == null) {
        throw new SelectorException("invalid selector: '" + expression + "'; can't understand '" + part + "'");
      }
      parsed.add(term);
    }
    List<Term> canonical = new ArrayList<>();
    for (Term term : parsed) {
      canonical.add(new Term(labels.canonical(term.field), term.negated, term.value));
    }
    return canonical.isEmpty() ? EVERYTHING : new FieldSelector(canonical, labels);
  }

  /**
   * The selector that matches every object.
   *
   * @return the empty selector
   */
  public static FieldSelector everything() {
    return EVERYTHING;
  }

  /** Splits on commas not escaped by a backslash. */
  private static List<String> splitTerms(String expression) {
    List<String> parts = new ArrayList<>();
    int start = 0;
    boolean escaped = false;
    for (int i = 0; i < expression.length(); i++) {
      char c = expression.charAt(i);
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == ',') {
        parts.add(expression.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(expression.substring(start));
    return parts;
  }

  /** The first {@code !=}, {@code ==} or {@code =} splits field from value; null when none. */
  private static Term splitTerm(String part) {
    for (int i = 0; i < part.length(); i++) {
      String rest = part.substring(i);
      for (String operator : List.of("!=", "==", "=")) {
        if (rest.startsWith(operator)) {
          return new Term(part.substring(0, i), operator.equals("!="), unescape(rest.substring(operator.length())));
        }
      }
    }
    return null;
  }

  private static String unescape(String value) {
    StringBuilder out = new StringBuilder();
    boolean escaped = false;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (escaped) {
        if (c != '\\' && c != ',' && c != '=') {
          throw new SelectorException("invalid field selector: invalid escape sequence: \\" + c);
        }
        out.append(c);
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == ',' || c == '=') {
        throw new SelectorException("invalid field selector: unescaped character in value: " + (int) c);
      } else {
        out.append(c);
      }
    }
    if (escaped) {
      throw new SelectorException("invalid field selector: invalid escape sequence: \\");
    }
    return out.toString();
  }

  /**
   * Whether an object satisfies every term.
   *
   * @param object the object as JSON; fields are read from it (e.g. {@code metadata.name},
   *     {@code status.phase}); a missing field reads as {@code ""} (or kube's default, e.g.
   *     {@code false} for Pod {@code spec.hostNetwork})
   * @return {@code true} when all terms hold
   */
  public boolean matches(JsonNode object) {
    for (Term term : terms) {
      boolean equal = labels.valueOf(object, term.field).equals(term.value);
      if (equal == term.negated) {
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
    return terms.isEmpty();
  }

  /**
   * The value a field must have for an object to match, when a {@code field=value} term pins it,
   * as kube's {@code RequiresExactMatch} (e.g. {@code metadata.name} for a single-object watch).
   *
   * @param field the canonical field label
   * @return the required value, or empty
   */
  public Optional<String> exactMatch(String field) {
    for (Term term : terms) {
      if (term.field.equals(field) && !term.negated) {
        return Optional.of(term.value);
      }
    }
    return Optional.empty();
  }

  /**
   * kube's canonical form: terms sorted, aliases resolved, values escaped, e.g.
   * {@code metadata.name=web,status.phase!=Running}.
   *
   * @return the selector text; {@code ""} for {@link #everything()}
   */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    terms.forEach(t -> parts.add(t.toString()));
    return String.join(",", parts);
  }
}
