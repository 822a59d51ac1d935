package dev.ctk.fake.internal.select;

import dev.ctk.fake.internal.status.GoText;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Which field labels a kind accepts in {@code ?fieldSelector=}, what each reads from an object, and
 * how kube words the 400 for any other label. kube decides this in two places, both mirrored here:
 * the kind's field-label conversion function (accepted labels, aliases, error text) and its
 * registry's selectable-fields set (the values matched).
 */
final class FieldLabels {

  /**
   * Labels beyond {@code metadata.name}/{@code metadata.namespace}, one a line: API group
   * ({@code core} for {@code ""}), kind, label, where the value is read ({@code a.b.0.c}; {@code |}
   * separates a fallback path used when the first is empty; {@code =label} is an alias for another
   * label; {@code -} is accepted but never set, so it only equals {@code ""}) and the value when the
   * field is absent.
   */
  static final String TABLE = """
      core   Pod                    spec.nodeName                   spec.nodeName                     ""
      core   Pod                    spec.restartPolicy              spec.restartPolicy                ""
      core   Pod                    spec.schedulerName              spec.schedulerName                ""
      core   Pod                    spec.serviceAccountName         spec.serviceAccountName           ""
      core   Pod                    spec.hostNetwork                spec.hostNetwork                  false
      core   Pod                    status.phase                    status.phase                      ""
      core   Pod                    status.podIP                    status.podIPs.0.ip|status.podIP   ""
      core   Pod                    status.podIPs                   -                                 ""
      core   Pod                    status.nominatedNodeName        status.nominatedNodeName          ""
      core   Pod                    spec.host                       =spec.nodeName                    ""
      core   Node                   spec.unschedulable              spec.unschedulable                false
      core   Namespace              status.phase                    status.phase                      ""
      core   Secret                 type                            type                              ""
      core   Service                spec.clusterIP                  spec.clusterIP                    ""
      core   Service                spec.type                       spec.type                         ""
      core   ReplicationController  status.replicas                 status.replicas                   0
      core   Event                  involvedObject.kind             involvedObject.kind               ""
      core   Event                  involvedObject.namespace        involvedObject.namespace          ""
      core   Event                  involvedObject.name             involvedObject.name               ""
      core   Event                  involvedObject.uid              involvedObject.uid                ""
      core   Event                  involvedObject.apiVersion       involvedObject.apiVersion         ""
      core   Event                  involvedObject.resourceVersion  involvedObject.resourceVersion    ""
      core   Event                  involvedObject.fieldPath        involvedObject.fieldPath          ""
      core   Event                  reason                          reason                            ""
      core   Event                  reportingComponent              reportingComponent                ""
      core   Event                  source                          source.component|reportingComponent ""
      core   Event                  type                            type                              ""
      batch  Job                    status.successful               status.succeeded                  0
      """;

  /** Cluster-scoped kinds whose conversion function does not accept {@code metadata.namespace}. */
  private static final Set<String> WITHOUT_NAMESPACE = Set.of("/Node", "/Namespace");

  /** Kinds whose own conversion function words the error differently from core's. */
  private static final Map<String, UnaryOperator<String>> REJECTIONS = Map.of(
      "batch/Job", label -> "field label " + GoText.quote(label) + " not supported for Job");

  private static final UnaryOperator<String> CORE_REJECTION = label -> "field label not supported: " + label;
  private static final UnaryOperator<String> DEFAULT_REJECTION = label -> GoText.quote(label)
      + " is not a known field selector: only \"metadata.name\", \"metadata.namespace\"";

  private static final Map<String, Map<String, String[]>> KINDS = new HashMap<>();

  static {
    for (String line : TABLE.strip().split("\n")) {
      String[] c = line.trim().split("\\s+");
      String group = c[0].equals("core") ? "" : c[0];
      String absent = c[4].equals("\"\"") ? "" : c[4];
      KINDS.computeIfAbsent(group + "/" + c[1], k -> new LinkedHashMap<>()).put(c[2], new String[] {c[3], absent});
    }
  }

  /** Client label to canonical label. */
  private final Map<String, String> accepted;
  /** Canonical label to {read-path, value-when-absent}. */
  private final Map<String, String[]> readers;
  private final UnaryOperator<String> rejection;

  private FieldLabels(Map<String, String> accepted, Map<String, String[]> readers, UnaryOperator<String> rejection) {
    this.accepted = accepted;
    this.readers = readers;
    this.rejection = rejection;
  }

  /** The labels of a kind, with kube's aliases, values and error text. */
  static FieldLabels forKind(String apiGroup, String kind) {
    String id = (apiGroup == null ? "" : apiGroup) + "/" + kind;
    Map<String, String[]> rows = KINDS.get(id);
    Map<String, String> accepted = new LinkedHashMap<>();
    Map<String, String[]> readers = new LinkedHashMap<>();
    accepted.put("metadata.name", "metadata.name");
    readers.put("metadata.name", new String[] {"metadata.name", ""});
    if (!WITHOUT_NAMESPACE.contains(id)) {
      accepted.put("metadata.namespace", "metadata.namespace");
      readers.put("metadata.namespace", new String[] {"metadata.namespace", ""});
    }
    if (rows == null && !REJECTIONS.containsKey(id) && !WITHOUT_NAMESPACE.contains(id)) {
      return new FieldLabels(accepted, readers, DEFAULT_REJECTION);
    }
    if (rows != null) {
      rows.forEach((label, row) -> {
        if (row[0].startsWith("=")) {
          accepted.put(label, row[0].substring(1));
        } else {
          accepted.put(label, label);
          readers.put(label, row);
        }
      });
    }
    return new FieldLabels(accepted, readers, REJECTIONS.getOrDefault(id, CORE_REJECTION));
  }

  /** Exactly {@code labels}, read as dotted paths; other labels fail with core's wording. */
  static FieldLabels of(Set<String> labels) {
    Map<String, String> accepted = new LinkedHashMap<>();
    Map<String, String[]> readers = new LinkedHashMap<>();
    for (String label : labels) {
      accepted.put(label, label);
      readers.put(label, new String[] {label, ""});
    }
    return new FieldLabels(accepted, readers, CORE_REJECTION);
  }

  /** The labels a client may use, aliases included. */
  Set<String> accepted() {
    return Collections.unmodifiableSet(new LinkedHashSet<>(accepted.keySet()));
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
