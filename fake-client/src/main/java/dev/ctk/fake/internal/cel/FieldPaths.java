package dev.ctk.fake.internal.cel;

import dev.ctk.fake.internal.schema.Schema;

/**
 * kube's {@code ValidFieldPath} for a rule's {@code fieldPath}: a JSONPath relative to the node the rule is declared
 * on, made of {@code .name} and {@code ['name']} steps through declared properties or map keys (no list indexes),
 * printed as kube prints the resulting field path ({@code spec.ports}, {@code labels[key]}).
 */
final class FieldPaths {

  private FieldPaths() {}

  /**
   * The normalized path, or {@code null} when the path is not valid for the schema.
   *
   * @param jsonPath e.g. {@code .spec.replicas} or {@code ['metadata']['name']}
   * @param schema the node the rule is declared on
   */
  static String normalize(String jsonPath, Schema schema) {
    StringBuilder out = new StringBuilder();
    Schema current = schema;
    int i = 0;
    while (i < jsonPath.length()) {
      char c = jsonPath.charAt(i);
      String name;
      if (c == '.') {
        int end = i + 1;
        while (end < jsonPath.length() && ".[]".indexOf(jsonPath.charAt(end)) < 0) {
          end++;
        }
        name = jsonPath.substring(i + 1, end);
        if (name.isEmpty()) {
          return null;
        }
        i = end;
      } else if (c == '[') {
        if (i + 1 >= jsonPath.length() || jsonPath.charAt(i + 1) != '\'') {
          return null;
        }
        int end = i + 2;
        while (end < jsonPath.length() && !(jsonPath.charAt(end) == '\'' && jsonPath.charAt(end - 1) != '\\')) {
          end++;
        }
        if (end + 1 >= jsonPath.length() || jsonPath.charAt(end + 1) != ']') {
          return null;
        }
        name = unescape(jsonPath.substring(i + 2, end));
        if (name == null) {
          return null;
        }
        i = end + 2;
      } else {
        return null;
      }
      if (!current.properties().isEmpty()) {
        Schema next = current.properties().get(name);
        if (next == null) {
          return null;
        }
        out.append(out.length() == 0 ? "" : ".").append(name);
        current = next;
      } else if (current.additionalProperties() != null) {
        out.append('[').append(name).append(']');
        current = current.additionalProperties();
      } else {
        return null;
      }
    }
    return out.toString();
  }

  private static String unescape(String quoted) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < quoted.length(); i++) {
      char c = quoted.charAt(i);
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (++i >= quoted.length()) {
        return null;
      }
      switch (quoted.charAt(i)) {
        case 'a' -> out.append('\u0007');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'v' -> out.append('\u000b');
        case '\'' -> out.append('\'');
        case '\\' -> out.append('\\');
        default -> {
          return null;
        }
      }
    }
    return out.toString();
  }
}
