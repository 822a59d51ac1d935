package dev.ctk.fake.internal.schema;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * One field error a schema check found, as kube reports it in a 422 Invalid {@code Status}.
 *
 * @param type kube's cause type, e.g. {@code FieldValueInvalid}
 * @param field the field path, e.g. {@code spec.replicas}
 * @param body the error text without the path, e.g.
 *     {@code Invalid value: 0: spec.replicas in body should be greater than or equal to 1}, as the oldest minor the
 *     fake emulates words it
 * @param later how later minors word the body: from that minor on (key), the text (value); empty when all alike
 */
public record SchemaError(String type, String field, String body, NavigableMap<Integer, String> later) {

  /**
   * An error worded alike in every minor.
   *
   * @param type kube's cause type
   * @param field the field path
   * @param body the error text without the path
   */
  public SchemaError(String type, String field, String body) {
    this(type, field, body, new TreeMap<>());
  }

  /** Copies {@code later}. */
  public SchemaError {
    later = java.util.Collections.unmodifiableNavigableMap(new TreeMap<>(later));
  }

  /**
   * This error, worded {@code laterBody} from minor {@code fromMinor} on.
   *
   * @param fromMinor e.g. {@code 34}
   * @param laterBody the body from that minor on
   * @return a new error
   */
  public SchemaError wordedFrom(int fromMinor, String laterBody) {
    NavigableMap<Integer, String> all = new TreeMap<>(later);
    all.put(fromMinor, laterBody);
    return new SchemaError(type, field, body, all);
  }

  /**
   * The body as a server of that minor words it.
   *
   * @param minor the minor number, e.g. {@code 37}
   * @return the body
   */
  public String body(int minor) {
    Map.Entry<Integer, String> entry = later.floorEntry(minor);
    return entry == null ? body : entry.getValue();
  }
}
