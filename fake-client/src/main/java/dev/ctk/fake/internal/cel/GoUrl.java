package dev.ctk.fake.internal.cel;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A URL as Go's {@code net/url.ParseRequestURI} reads it, which is what kube's {@code url()} and {@code isURL()} use:
 * an absolute URL ({@code https://host:port/path?query}), a scheme with an opaque part ({@code mailto:x}) or an
 * absolute path ({@code /path}); no fragment is split off. Errors carry Go's texts.
 *
 * @param scheme the lower-cased scheme ({@code ""} for a path)
 * @param host {@code host[:port]} ({@code ""} when absent)
 * @param rawPath the path as written
 * @param rawQuery the query without {@code ?}
 */
record GoUrl(String scheme, String host, String rawPath, String rawQuery) {

  /** Parses a URL; throws {@link IllegalArgumentException} with Go's error (without the {@code parse "..."} part). */
  static GoUrl parseRequestUri(String raw) {
    for (int i = 0; i < raw.length(); i++) {
      if (raw.charAt(i) < 0x20 || raw.charAt(i) == 0x7f) {
        throw new IllegalArgumentException("net/url: invalid control character in URL");
      }
    }
    if (raw.isEmpty()) {
      throw new IllegalArgumentException("empty url");
    }
    if (raw.equals("*")) {
      return new GoUrl("", "", "*", "");
    }
    String scheme = "";
    String rest = raw;
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (Character.isLetter(c) && c < 128) {
        continue;
      }
      if (Character.isDigit(c) || c == '+' || c == '-' || c == '.') {
        if (i == 0) {
          break;
        }
        continue;
      }
      if (c == ':') {
        if (i == 0) {
          throw new IllegalArgumentException("missing protocol scheme");
        }
        scheme = raw.substring(0, i).toLowerCase(Locale.ROOT);
        rest = raw.substring(i + 1);
      }
      break;
    }
    String query = "";
    if (rest.endsWith("?") && rest.indexOf('?') == rest.length() - 1) {
      rest = rest.substring(0, rest.length() - 1);
    } else if (rest.indexOf('?') >= 0) {
      query = rest.substring(rest.indexOf('?') + 1);
      rest = rest.substring(0, rest.indexOf('?'));
    }
    if (!rest.startsWith("/")) {
      if (!scheme.isEmpty()) {
        return new GoUrl(scheme, "", "", query);
      }
      throw new IllegalArgumentException("invalid URI for request");
    }
    String host = "";
    if (!scheme.isEmpty() && rest.startsWith("//")) {
      String authority = rest.substring(2);
      int slash = authority.indexOf('/');
      rest = slash < 0 ? "" : authority.substring(slash);
      authority = slash < 0 ? authority : authority.substring(0, slash);
      host = host(authority.substring(authority.lastIndexOf('@') + 1));
    }
    unescape(rest, false);
    return new GoUrl(scheme, host, rest, query);
  }

  private static String host(String host) {
    if (host.startsWith("[")) {
      int close = host.lastIndexOf(']');
      if (close < 0) {
        throw new IllegalArgumentException("missing ']' in host");
      }
      String port = host.substring(close + 1);
      if (!validOptionalPort(port)) {
        throw new IllegalArgumentException("invalid port " + quote(port) + " after host");
      }
      return host;
    }
    int colon = host.lastIndexOf(':');
    if (colon >= 0 && !validOptionalPort(host.substring(colon))) {
      throw new IllegalArgumentException("invalid port " + quote(host.substring(colon)) + " after host");
    }
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if (c < 0x80 && c != '%' && shouldEscapeHost(c)) {
        throw new IllegalArgumentException("invalid character " + quote(host.substring(i, i + 1))
            + " in host name");
      }
    }
    return host;
  }

  private static boolean shouldEscapeHost(char c) {
    return !(Character.isLetterOrDigit(c) || "-_.~!$&'()*+,;=:[]<>\"".indexOf(c) >= 0);
  }

  private static boolean validOptionalPort(String port) {
    if (port.isEmpty()) {
      return true;
    }
    if (port.charAt(0) != ':') {
      return false;
    }
    for (int i = 1; i < port.length(); i++) {
      if (!Character.isDigit(port.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** The host without port and brackets. */
  String hostname() {
    String[] parts = splitHostPort();
    return parts[0];
  }

  /** The port, or {@code ""}. */
  String port() {
    return splitHostPort()[1];
  }

  private String[] splitHostPort() {
    String h = host;
    String port = "";
    int colon = h.lastIndexOf(':');
    if (colon >= 0 && validOptionalPort(h.substring(colon))) {
      port = h.substring(colon + 1);
      h = h.substring(0, colon);
    }
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    return new String[] {h, port};
  }

  /** Go's {@code EscapedPath}: the path as written when that is a valid encoding, else the path escaped. */
  String escapedPath() {
    if (rawPath.equals("*") || validEncoded(rawPath)) {
      return rawPath;
    }
    String path = unescape(rawPath, false);
    StringBuilder out = new StringBuilder();
    for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c < 0x80 && (Character.isLetterOrDigit(c) || "-_.~$&+,/:;=@".indexOf(c) >= 0)) {
        out.append((char) c);
      } else {
        out.append('%').append(String.format("%02X", c));
      }
    }
    return out.toString();
  }

  private static boolean validEncoded(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if ("!$&'()*+,;=:@[]%".indexOf(c) >= 0 || c < 0x80 && (Character.isLetterOrDigit(c) || "-_.~/".indexOf(c) >= 0)) {
        continue;
      }
      return false;
    }
    return true;
  }

  /** Go's {@code Query()}: {@code &}-separated {@code key=value} pairs, unescaped; malformed pairs skipped. */
  Map<String, List<String>> query() {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (String pair : rawQuery.split("&", -1)) {
      if (pair.isEmpty() || pair.contains(";")) {
        continue;
      }
      int eq = pair.indexOf('=');
      try {
        String key = unescape(eq < 0 ? pair : pair.substring(0, eq), true);
        String value = eq < 0 ? "" : unescape(pair.substring(eq + 1), true);
        out.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
      } catch (IllegalArgumentException e) {
        // Go skips pairs that do not unescape
      }
    }
    Map<String, List<String>> frozen = new LinkedHashMap<>();
    out.forEach((k, v) -> frozen.put(k, List.copyOf(v)));
    return Collections.unmodifiableMap(frozen);
  }

  private static String unescape(String s, boolean query) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%') {
        if (i + 2 >= s.length() || Character.digit(s.charAt(i + 1), 16) < 0
            || Character.digit(s.charAt(i + 2), 16) < 0) {
          String bad = s.substring(i, Math.min(s.length(), i + 3));
          throw new IllegalArgumentException("invalid URL escape " + quote(bad));
        }
        out.write(Character.digit(s.charAt(i + 1), 16) * 16 + Character.digit(s.charAt(i + 2), 16));
        i += 2;
      } else if (c == '+' && query) {
        out.write(' ');
      } else {
        int cp = s.codePointAt(i);
        byte[] bytes = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
        i += Character.charCount(cp) - 1;
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static String quote(String text) {
    return dev.ctk.fake.internal.status.GoText.quote(text);
  }
}
