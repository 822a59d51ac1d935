package dev.ctk.fake.internal.cel;

import java.util.Set;

/**
 * kube's escaping of property names into CEL identifiers ({@code k8s.io/apiserver/pkg/cel.Escape}): CEL keywords
 * become {@code __keyword__}, {@code __} becomes {@code __underscores__}, {@code .} {@code __dot__}, {@code -}
 * {@code __dash__} and {@code /} {@code __slash__}. Names starting with a digit or holding any other character cannot
 * be reached from CEL.
 */
final class PropertyNames {

  private static final Set<String> RESERVED = Set.of("true", "false", "null", "in", "as", "break", "const",
      "continue", "else", "for", "function", "if", "import", "let", "loop", "package", "namespace", "return", "var",
      "void", "while");

  private PropertyNames() {}

  /** The CEL name of a property, or {@code null} when it cannot be accessed from CEL. */
  static String escape(String name) {
    if (name.isEmpty() || Character.isDigit(name.charAt(0)) && name.charAt(0) < 128) {
      return null;
    }
    if (RESERVED.contains(name)) {
      return "__" + name + "__";
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '_' && i + 1 < name.length() && name.charAt(i + 1) == '_') {
        out.append("__underscores__");
        i++;
      } else if (c == '.') {
        out.append("__dot__");
      } else if (c == '-') {
        out.append("__dash__");
      } else if (c == '/') {
        out.append("__slash__");
      } else if (c < 128 && (Character.isLetterOrDigit(c) || c == '_')) {
        out.append(c);
      } else {
        return null;
      }
    }
    return out.toString();
  }
}
