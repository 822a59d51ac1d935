package dev.ctk.fake.internal.cel;

import dev.ctk.fake.internal.status.GoText;
import java.util.Arrays;

/**
 * An IP address as Go's {@code netip.ParseAddr} reads it (IPv4 dotted decimal without leading zeros, IPv6 with
 * {@code ::} and a trailing IPv4 part), with the rules kube's IP library adds (no zone, no IPv4-mapped IPv6), and the
 * checks {@code netip.Addr} offers. Parsing never resolves host names.
 */
final class NetAddress {

  private final byte[] bytes;

  private NetAddress(byte[] bytes) {
    this.bytes = bytes;
  }

  /** Parses an address; {@link IllegalArgumentException} with kube's text. */
  static NetAddress parse(String raw) {
    if (raw.contains("%")) {
      parseBare(raw.substring(0, raw.indexOf('%')), raw);
      throw new IllegalArgumentException("IP address " + GoText.quote(raw) + " with zone value is not allowed");
    }
    NetAddress address = parseBare(raw, raw);
    if (address.isMapped()) {
      throw new IllegalArgumentException("IPv4-mapped IPv6 address " + GoText.quote(raw) + " is not allowed");
    }
    return address;
  }

  private static NetAddress parseBare(String text, String raw) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '.') {
        return new NetAddress(ipv4(text, raw));
      }
      if (text.charAt(i) == ':') {
        return new NetAddress(ipv6(text, raw));
      }
    }
    throw error(raw, "unable to parse IP");
  }

  private static byte[] ipv4(String s, String raw) {
    String[] fields = s.split("\\.", -1);
    if (fields.length < 4) {
      throw error(raw, "IPv4 address too short");
    }
    if (fields.length > 4) {
      throw error(raw, "IPv4 address too long");
    }
    byte[] out = new byte[4];
    for (int i = 0; i < 4; i++) {
      String f = fields[i];
      if (f.isEmpty()) {
        throw error(raw, "IPv4 field must have at least one digit");
      }
      if (!f.chars().allMatch(Character::isDigit) || f.length() > 3) {
        throw error(raw, f.length() > 3 && f.chars().allMatch(Character::isDigit) ? "IPv4 field has value >255"
            : "unexpected character");
      }
      if (f.length() > 1 && f.charAt(0) == '0') {
        throw error(raw, "IPv4 field has octet with leading zero");
      }
      int v = Integer.parseInt(f);
      if (v > 255) {
        throw error(raw, "IPv4 field has value >255");
      }
      out[i] = (byte) v;
    }
    return out;
  }

  private static byte[] ipv6(String s, String raw) {
    int[] groups = new int[8];
    int count = 0;
    int ellipsis = -1;
    int i = 0;
    if (s.startsWith("::")) {
      ellipsis = 0;
      i = 2;
    }
    while (i < s.length()) {
      int start = i;
      while (i < s.length() && Character.digit(s.charAt(i), 16) >= 0) {
        i++;
      }
      if (i < s.length() && s.charAt(i) == '.') {
        if (count > 6 || start == i && count == 0 && ellipsis < 0) {
          throw error(raw, "unexpected character");
        }
        byte[] v4 = ipv4(s.substring(start), raw);
        groups[count++] = (v4[0] & 0xff) << 8 | v4[1] & 0xff;
        groups[count++] = (v4[2] & 0xff) << 8 | v4[3] & 0xff;
        i = s.length();
        break;
      }
      if (i == start) {
        throw error(raw, "each colon-separated field must have at least one digit");
      }
      if (i - start > 4) {
        throw error(raw, "each group must have 4 or less digits");
      }
      if (count == 8) {
        throw error(raw, "too many colons");
      }
      groups[count++] = Integer.parseInt(s.substring(start, i), 16);
      if (i == s.length()) {
        break;
      }
      if (s.charAt(i) != ':') {
        throw error(raw, "unexpected character, want colon");
      }
      i++;
      if (i < s.length() && s.charAt(i) == ':') {
        if (ellipsis >= 0) {
          throw error(raw, "multiple :: in address");
        }
        ellipsis = count;
        i++;
      } else if (i == s.length()) {
        throw error(raw, "colon must be followed by more characters");
      }
    }
    if (ellipsis < 0 && count < 8) {
      throw error(raw, "address string too short");
    }
    if (ellipsis >= 0) {
      if (count == 8) {
        throw error(raw, "the :: must expand to at least one field of zeros");
      }
      int shift = 8 - count;
      System.arraycopy(groups, ellipsis, groups, ellipsis + shift, count - ellipsis);
      Arrays.fill(groups, ellipsis, ellipsis + shift, 0);
    }
    byte[] out = new byte[16];
    for (int g = 0; g < 8; g++) {
      out[2 * g] = (byte) (groups[g] >> 8);
      out[2 * g + 1] = (byte) groups[g];
    }
    return out;
  }

  private static IllegalArgumentException error(String raw, String message) {
    return new IllegalArgumentException("IP Address " + GoText.quote(raw)
        + " parse error during conversion from string: ParseAddr(" + GoText.quote(raw) + "): " + message);
  }

  static NetAddress of(byte[] bytes) {
    return new NetAddress(bytes.clone());
  }

  byte[] bytes() {
    return bytes.clone();
  }

  long family() {
    return bytes.length == 4 ? 4 : 6;
  }

  private boolean isMapped() {
    if (bytes.length != 16) {
      return false;
    }
    for (int i = 0; i < 10; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return (bytes[10] & 0xff) == 0xff && (bytes[11] & 0xff) == 0xff;
  }

  boolean isUnspecified() {
    for (byte b : bytes) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  boolean isLoopback() {
    if (bytes.length == 4) {
      return (bytes[0] & 0xff) == 127;
    }
    for (int i = 0; i < 15; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return bytes[15] == 1;
  }

  boolean isMulticast() {
    return bytes.length == 4 ? (bytes[0] & 0xf0) == 0xe0 : (bytes[0] & 0xff) == 0xff;
  }

  boolean isLinkLocalMulticast() {
    return bytes.length == 4 ? (bytes[0] & 0xff) == 224 && bytes[1] == 0 && bytes[2] == 0
        : (bytes[0] & 0xff) == 0xff && (bytes[1] & 0x0f) == 0x02;
  }

  boolean isLinkLocalUnicast() {
    return bytes.length == 4 ? (bytes[0] & 0xff) == 169 && (bytes[1] & 0xff) == 254
        : (bytes[0] & 0xff) == 0xfe && (bytes[1] & 0xc0) == 0x80;
  }

  boolean isGlobalUnicast() {
    if (bytes.length == 4 && Arrays.equals(bytes, new byte[] {-1, -1, -1, -1})) {
      return false;
    }
    return !isUnspecified() && !isLoopback() && !isMulticast() && !isLinkLocalUnicast();
  }

  /** Go's {@code Addr.String()}: dotted decimal, or RFC 5952 (the first longest run of zero groups as ::). */
  @Override
  public String toString() {
    if (bytes.length == 4) {
      return (bytes[0] & 0xff) + "." + (bytes[1] & 0xff) + "." + (bytes[2] & 0xff) + "." + (bytes[3] & 0xff);
    }
    int[] g = new int[8];
    for (int i = 0; i < 8; i++) {
      g[i] = (bytes[2 * i] & 0xff) << 8 | bytes[2 * i + 1] & 0xff;
    }
    int bestStart = -1;
    int bestLength = 1;
    for (int i = 0; i < 8; i++) {
      int j = i;
      while (j < 8 && g[j] == 0) {
        j++;
      }
      if (j - i > bestLength) {
        bestStart = i;
        bestLength = j - i;
      }
      i = Math.max(i, j);
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        out.append("::");
        i += bestLength - 1;
        continue;
      }
      if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
        out.append(':');
      }
      out.append(Integer.toHexString(g[i]));
    }
    return out.toString();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof NetAddress a && Arrays.equals(a.bytes, bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }
}
