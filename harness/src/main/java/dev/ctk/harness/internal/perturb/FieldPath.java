package dev.ctk.harness.internal.perturb;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A field of an object that a perturbation campaign ignores when it compares end states, as {@code Perturbed.ignoreFields()} writes it: {@code status.lastUpdated}, {@code metadata.annotations["example.com/seen"]},
 * {@code spec.items[*].stamp}, {@code spec.items[0].stamp}, optionally for one kind: {@code ConfigMap:data.at}.
 *
 * @param kind the kind it applies to, or {@code null} for every kind
 * @param segments field names (String), list indexes (Integer) or {@link #ANY_ELEMENT}
 * @param text the path as written
 */
public record FieldPath(String kind, List<Object> segments, String text) {

  /** The segment {@code [*]}: every element of a list. */
  public static final Object ANY_ELEMENT = new Object() {
    @Override
    public String toString() {
      return "[*]";
    }
  };

  public FieldPath {
    segments = List.copyOf(segments);
  }

  /**
   * Parses a path.
   *
   * @param text the path
   * @param source where it was written, for the message
   * @param failure makes the exception to throw
   * @param <E> its type
   * @throws E for a path that cannot be read
   */
  public static <E extends RuntimeException> FieldPath parse(String text, String source, Function<String, E> failure)
      throws E {
    String path = text.trim();
    String kind = null;
    int colon = path.indexOf(':');
    int firstQuote = path.indexOf('"');
    if (colon > 0 && (firstQuote < 0 || colon < firstQuote)) {
      kind = path.substring(0, colon);
      path = path.substring(colon + 1);
      if (!kind.matches("[A-Za-z][A-Za-z0-9]*")) {
        throw failure.apply(invalid(text, source, "\"" + kind + "\" before ':' is not a kind"));
      }
    }
    List<Object> segments = new ArrayList<>();
    int i = 0;
    boolean expectName = true;
    while (i < path.length()) {
      char c = path.charAt(i);
      if (c == '[') {
        int end = path.indexOf(']', i);
        if (segments.isEmpty() || end < 0) {
          throw failure.apply(invalid(text, source, segments.isEmpty() ? "it starts with '['" : "a '[' is not closed"));
        }
        String inside = path.substring(i + 1, end);
        if (inside.startsWith("\"")) {
          int close = path.indexOf("\"]", i + 2);
          if (close < 0) {
            throw failure.apply(invalid(text, source, "a [\"key\"] is not closed"));
          }
          segments.add(path.substring(i + 2, close));
          end = close + 1;
        } else if (inside.equals("*")) {
          segments.add(ANY_ELEMENT);
        } else if (inside.matches("\\d+")) {
          segments.add(Integer.parseInt(inside));
        } else {
          throw failure.apply(invalid(text, source, "[" + inside + "] is neither [\"key\"], [<index>] nor [*]"));
        }
        i = end + 1;
        expectName = false;
      } else if (c == '.') {
        if (expectName) {
          throw failure.apply(invalid(text, source, "a field name is empty"));
        }
        expectName = true;
        i++;
      } else {
        if (!expectName) {
          throw failure.apply(invalid(text, source, "a '.' or '[' is missing at character " + (i + 1)));
        }
        int end = i;
        while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
          end++;
        }
        segments.add(path.substring(i, end));
        i = end;
        expectName = false;
      }
    }
    if (segments.isEmpty() || expectName) {
      throw failure.apply(invalid(text, source, segments.isEmpty() ? "it is empty" : "it ends with '.'"));
    }
    return new FieldPath(kind, segments, text.trim());
  }

  private static String invalid(String text, String source, String why) {
    return "Invalid field path \"" + text + "\" in " + source + ": " + why + ". Expected a path into the object "
        + "such as status.lastUpdated, metadata.annotations[\"example.com/seen\"], spec.items[*].stamp, "
        + "optionally for one kind: ConfigMap:data.generatedAt.";
  }

  /**
   * Removes the field from an object (as a map tree), if it applies to its kind.
   *
   * @param objectKind the object's kind
   * @param object the object; changed in place
   */
  public void removeFrom(String objectKind, Map<String, Object> object) {
    if (kind == null || kind.equals(objectKind)) {
      remove(object, 0);
    }
  }

  @SuppressWarnings("unchecked")
  private void remove(Object node, int index) {
    Object segment = segments.get(index);
    boolean last = index == segments.size() - 1;
    if (node instanceof Map<?, ?> map && segment instanceof String name) {
      if (last) {
        map.remove(name);
      } else if (map.containsKey(name)) {
        remove(map.get(name), index + 1);
      }
    } else if (node instanceof List<?> list) {
      if (segment == ANY_ELEMENT) {
        if (last) {
          list.clear();
        } else {
          list.forEach(element -> remove(element, index + 1));
        }
      } else if (segment instanceof Integer position && position < list.size()) {
        if (last) {
          ((List<Object>) list).set(position, null);
        } else {
          remove(list.get(position), index + 1);
        }
      }
    }
  }
}
