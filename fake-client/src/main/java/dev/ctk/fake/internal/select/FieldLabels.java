package dev.ctk.fake.internal.select;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.status.GoText;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Which field labels a kind accepts in {@code ?fieldSelector=}, what each reads from an object, and how kube words
 * the 400 for any other label. kube decides this in two places, both described here: the kind's field-label
 * conversion function (accepted labels, aliases, error text) and its registry's selectable-fields set (the values
 * matched). Each built-in kind's labels are one column of its row in
 * {@code dev.ctk.fake.internal.registry.BuiltinKinds}.
 *
 * <p>Immutable; every method returns a new description.
 *
 * <pre>{@code
 * FieldLabels node = FieldLabels.converted().withoutNamespace()
 *     .label("spec.unschedulable", "spec.unschedulable", "false");
 * FieldSelector.parse("spec.unschedulable=true", node);
 * }</pre>
 */
public final class FieldLabels {

  private static final UnaryOperator<String> CORE_REJECTION = label -> "field label not supported: " + label;
  private static final UnaryOperator<String> DEFAULT_REJECTION = label -> GoText.quote(label)
      + " is not a known field selector: only \"metadata.name\", \"metadata.namespace\"";

  /** Client label to canonical label. */
  private final Map<String, String> accepted;
  /** Canonical label to {read-path, value-when-absent}. */
  private final Map<String, String[]> readers;
  private final UnaryOperator<String> rejection;
  private final boolean ownConversion;

  private FieldLabels(Map<String, String> accepted, Map<String, String[]> readers, UnaryOperator<String> rejection,
      boolean ownConversion) {
    this.accepted = Collections.unmodifiableMap(accepted);
    this.readers = Collections.unmodifiableMap(readers);
    this.rejection = rejection;
    this.ownConversion = ownConversion;
  }

  /**
   * kube's default for a kind without a field-label conversion function of its own (apps/v1 kinds, custom
   * resources): {@code metadata.name} and {@code metadata.namespace}, and the default's wording for anything else.
   *
   * @return the default labels
   */
  public static FieldLabels standard() {
    return new FieldLabels(nameAndNamespace(), readersOf(nameAndNamespace()), DEFAULT_REJECTION, false);
  }

  /**
   * A kind with its own conversion function (most core/v1 kinds): {@code metadata.name} and
   * {@code metadata.namespace} to start with, and core's wording ({@code field label not supported: x}) for
   * anything else. Add the kind's labels with {@link #label}, {@link #alias} and {@link #neverSet}.
   *
   * @return the labels to build on
   */
  public static FieldLabels converted() {
    return new FieldLabels(nameAndNamespace(), readersOf(nameAndNamespace()), CORE_REJECTION, true);
  }

  /**
   * Exactly {@code labels}, read as dotted paths; other labels fail with core's wording.
   *
   * @param labels e.g. {@code metadata.name}
   * @return the labels
   */
  public static FieldLabels of(Set<String> labels) {
    Map<String, String> accepted = new LinkedHashMap<>();
    for (String label : labels) {
      accepted.put(label, label);
    }
    return new FieldLabels(accepted, readersOf(accepted), CORE_REJECTION, true);
  }

  /**
   * Without {@code metadata.namespace}: the conversion functions of the cluster-scoped Node and Namespace do not
   * accept it.
   *
   * @return a copy without that label
   */
  public FieldLabels withoutNamespace() {
    Map<String, String> nextAccepted = new LinkedHashMap<>(accepted);
    Map<String, String[]> nextReaders = new LinkedHashMap<>(readers);
    nextAccepted.remove("metadata.namespace");
    nextReaders.remove("metadata.namespace");
    return new FieldLabels(nextAccepted, nextReaders, rejection, ownConversion);
  }

  /**
   * One more label.
   *
   * @param label the label a client sends, e.g. {@code status.phase}
   * @param read where the value is read, a dotted path ({@code a.0.b} indexes a list); {@code |} separates a
   *     fallback path used when the first gives nothing, e.g. {@code status.podIPs.0.ip|status.podIP}
   * @param absent the value when nothing is found, e.g. {@code ""}, {@code false} or {@code 0}
   * @return a copy with the label
   */
  public FieldLabels label(String label, String read, String absent) {
    Map<String, String> nextAccepted = new LinkedHashMap<>(accepted);
    Map<String, String[]> nextReaders = new LinkedHashMap<>(readers);
    nextAccepted.put(label, label);
    nextReaders.put(label, new String[] {read, absent});
    return new FieldLabels(nextAccepted, nextReaders, rejection, true);
  }

  /**
   * A label kube accepts but never sets in the selectable fields, so it only equals {@code ""} (Pod
   * {@code status.podIPs}).
   *
   * @param label the label
   * @return a copy with the label
   */
  public FieldLabels neverSet(String label) {
    return label(label, "-", "");
  }

  /**
   * Another name for a label (Pod {@code spec.host} for {@code spec.nodeName}).
   *
   * @param label the alias a client may send
   * @param canonical the label it stands for, already added
   * @return a copy with the alias
   */
  public FieldLabels alias(String label, String canonical) {
    if (!readers.containsKey(canonical)) {
      throw new IllegalArgumentException("alias " + label + " names " + canonical + ", which is not a label yet");
    }
    Map<String, String> nextAccepted = new LinkedHashMap<>(accepted);
    nextAccepted.put(label, canonical);
    return new FieldLabels(nextAccepted, readers, rejection, true);
  }

  /**
   * kube's text for a label the kind does not accept, when its conversion function words it its own way (batch/v1
   * Job).
   *
   * @param rejection from the label to the error text
   * @return a copy with that wording
   */
  public FieldLabels rejecting(UnaryOperator<String> rejection) {
    return new FieldLabels(new LinkedHashMap<>(accepted), new LinkedHashMap<>(readers), rejection, true);
  }

  /**
   * Whether the kind has a conversion function of its own, as opposed to kube's default.
   *
   * @return {@code false} for {@link #standard()}
   */
  public boolean ownConversion() {
    return ownConversion;
  }

  /**
   * The labels a client may use, aliases included, in the order they were added.
   *
   * @return the accepted labels
   */
  public Set<String> accepted() {
    return Collections.unmodifiableSet(new LinkedHashSet<>(accepted.keySet()));
  }

  /**
   * Where a canonical label is read from.
   *
   * @param canonical e.g. {@code status.phase}
   * @return the path as given to {@link #label}, {@code -} for {@link #neverSet}, {@code null} for an alias or an
   *     unknown label
   */
  public String readPath(String canonical) {
    String[] reader = readers.get(canonical);
    return reader == null ? null : reader[0];
  }

  /** The canonical label for {@code label}. */
  String canonical(String label) {
    String canonical = accepted.get(label);
    if (canonical == null) {
      throw new SelectorException(rejection.apply(label));
    }
    return canonical;
  }

  /** The value an object has for a canonical label, as kube's selectable-fields set renders it. */
  String valueOf(JsonNode object, String canonical) {
    String[] reader = readers.get(canonical);
    if (reader == null || reader[0].equals("-")) {
      return "";
    }
    for (String path : reader[0].split("\\|")) {
      String value = read(object, path);
      if (value != null && !value.isEmpty()) {
        return value;
      }
    }
    return reader[1];
  }

  private static Map<String, String> nameAndNamespace() {
    Map<String, String> accepted = new LinkedHashMap<>();
    accepted.put("metadata.name", "metadata.name");
    accepted.put("metadata.namespace", "metadata.namespace");
    return accepted;
  }

  private static Map<String, String[]> readersOf(Map<String, String> accepted) {
    Map<String, String[]> readers = new LinkedHashMap<>();
    accepted.keySet().forEach(label -> readers.put(label, new String[] {label, ""}));
    return readers;
  }

  private static String read(JsonNode object, String path) {
    JsonNode node = object;
    for (String segment : path.split("\\.")) {
      if (node == null) {
        return null;
      }
      node = node.isArray() && segment.chars().allMatch(Character::isDigit)
          ? node.get(Integer.parseInt(segment))
          : node.get(segment);
    }
    if (node == null || node.isNull() || node.isContainerNode()) {
      return null;
    }
    return node.isIntegralNumber() ? node.bigIntegerValue().toString() : node.asText();
  }
}
