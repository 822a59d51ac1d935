package dev.ctk.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What one scenario saw on one target: an ordered list of named values (status codes, Status reasons and messages,
 * {@code details.causes}, the fields a client reads, watch event sequences), normalized so that two servers can be
 * compared: the scenario's namespace reads {@code <ns>}, uids {@code <uid>}, timestamps {@code <time>}; helpers turn
 * resourceVersions into relations ({@link #order(String, String)}), generated names into their shape and allocated
 * IPs into {@code <IPv4>}.
 *
 * <p>{@link #check(String, Object, Object)} also states what kube-apiserver answers; the fake must meet every such
 * expectation, a real server is compared with the fake value by value.
 *
 * <pre>{@code
 * Response again = t.api().post(t.core("configmaps"), body);
 * o.check("second create", again.outcome(), "409 AlreadyExists");
 * o.check("message", again.message(), "configmaps \"web\" already exists");
 * }</pre>
 */
public final class Observation {

  /** What an absent value (a {@code null}) reads as. */
  public static final String ABSENT = "<absent>";

  private static final Pattern UID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  private static final Pattern TIME =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})");
  private static final Pattern IPV4 =
      Pattern.compile("(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}");
  /** kube's generateName alphabet: no vowels, no 0, 1 and 3 (k8s.io/apimachinery/pkg/util/rand). */
  private static final Pattern GENERATED_SUFFIX = Pattern.compile("[bcdfghjklmnpqrstvwxz2456789]{5}");

  private final String namespace;
  private final Map<String, String> values = new LinkedHashMap<>();
  private final Map<String, String> expected = new LinkedHashMap<>();

  Observation(String namespace) {
    this.namespace = Objects.requireNonNull(namespace, "namespace");
  }

  /**
   * Records a value and what kube-apiserver answers there (after the same normalization).
   *
   * @param key a name unique in this scenario
   * @param actual what the target answered
   * @param expectedValue what kube-apiserver answers
   * @return this observation
   */
  public Observation check(String key, Object actual, Object expectedValue) {
    record(key, actual);
    expected.put(key, normalize(expectedValue));
    return this;
  }

  /**
   * Records a value without an expectation (compared between targets only). Prefer {@link #check}.
   *
   * @param key a name unique in this scenario
   * @param actual what the target answered
   * @return this observation
   */
  public Observation record(String key, Object actual) {
    if (values.containsKey(key)) {
      throw new IllegalArgumentException("observation key \"" + key + "\" is recorded twice in one scenario; "
          + "give each value its own name");
    }
    values.put(key, normalize(actual));
    return this;
  }

  /**
   * How a second resourceVersion relates to a first: {@code increased}, {@code same} or {@code decreased} (both
   * read as numbers, as every kube-apiserver backed by etcd writes them).
   *
   * @param before the earlier resourceVersion
   * @param after the later one
   * @return the relation
   */
  public static String order(String before, String after) {
    if (before == null || after == null) {
      return "missing (" + before + " -> " + after + ")";
    }
    int c = Long.compare(Long.parseLong(after), Long.parseLong(before));
    return c > 0 ? "increased" : c == 0 ? "same" : "decreased";
  }

  /**
   * The shape of a name made from {@code generateName}: {@code prefix + <5 kube chars>} when it has kube's 5-character
   * suffix, the name itself otherwise.
   *
   * @param prefix the generateName
   * @param name the generated name
   * @return the normalized name
   */
  public static String generatedName(String prefix, String name) {
    if (name != null && name.startsWith(prefix)
        && GENERATED_SUFFIX.matcher(name.substring(prefix.length())).matches()) {
      return prefix + "<5 kube chars>";
    }
    return name;
  }

  /**
   * {@code <IPv4>} for an IPv4 address (cluster IPs are allocated from ranges that differ between servers), the
   * value itself otherwise.
   *
   * @param ip the address
   * @return the normalized address
   */
  public static String ip(String ip) {
    return ip != null && IPV4.matcher(ip).matches() ? "<IPv4>" : ip;
  }

  /**
   * A text with every IPv4 address in it replaced by {@code <IPv4>}, e.g. a message that names an allocated IP.
   *
   * @param text any text, may be {@code null}
   * @return the text without addresses
   */
  public static String withoutIps(String text) {
    return text == null ? null : IPV4.matcher(text).replaceAll("<IPv4>");
  }

  /**
   * The recorded values, in order.
   *
   * @return key to normalized value
   */
  public Map<String, String> values() {
    return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /**
   * Each expectation the recorded values do not meet, as {@code key: expected <e> but was <a>}.
   *
   * @return the unmet expectations, empty when all are met
   */
  public List<String> unmetExpectations() {
    List<String> unmet = new ArrayList<>();
    expected.forEach((key, want) -> {
      String got = values.get(key);
      if (!want.equals(got)) {
        unmet.add(key + ":\n      expected: " + want + "\n      but was:  " + got);
      }
    });
    return unmet;
  }

  /** JSON with the fields of every object sorted by name, so that field order never makes a difference. */
  static String canonical(JsonNode node) {
    if (node.isObject()) {
      java.util.TreeMap<String, JsonNode> sorted = new java.util.TreeMap<>();
      node.fields().forEachRemaining(e -> sorted.put(e.getKey(), e.getValue()));
      StringBuilder out = new StringBuilder("{");
      sorted.forEach((k, v) -> out.append(out.length() > 1 ? "," : "")
          .append(com.fasterxml.jackson.databind.node.TextNode.valueOf(k)).append(':').append(canonical(v)));
      return out.append('}').toString();
    }
    if (node.isArray()) {
      StringBuilder out = new StringBuilder("[");
      node.forEach(item -> out.append(out.length() > 1 ? "," : "").append(canonical(item)));
      return out.append(']').toString();
    }
    return node.toString();
  }

  String normalize(Object value) {
    String text;
    if (value == null) {
      return ABSENT;
    } else if (value instanceof JsonNode node) {
      text = node.isMissingNode() || node.isNull() ? ABSENT : node.isValueNode() ? node.asText() : canonical(node);
    } else if (value instanceof Collection<?> list) {
      List<String> items = new ArrayList<>();
      list.forEach(item -> items.add(normalize(item)));
      text = items.toString();
    } else {
      text = String.valueOf(value);
    }
    text = text.replace(namespace, "<ns>");
    text = UID.matcher(text).replaceAll("<uid>");
    return TIME.matcher(text).replaceAll("<time>");
  }
}
