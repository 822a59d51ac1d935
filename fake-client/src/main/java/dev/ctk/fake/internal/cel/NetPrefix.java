package dev.ctk.fake.internal.cel;

import dev.ctk.fake.internal.status.GoText;

/**
 * A CIDR as Go's {@code netip.ParsePrefix} reads it ({@code address/bits}, the address kept as written), with kube's
 * rules (no zone, no IPv4-mapped IPv6).
 *
 * @param address the address as written (host bits may be set)
 * @param bits the prefix length
 */
record NetPrefix(NetAddress address, int bits) {

  /** Parses a CIDR; {@link IllegalArgumentException} with kube's text. */
  static NetPrefix parse(String raw) {
    int slash = raw.lastIndexOf('/');
    if (slash < 0) {
      throw error(raw, "no '/'");
    }
    String addressText = raw.substring(0, slash);
    if (addressText.contains("%")) {
      throw error(raw, "IPv6 zones cannot be present in a prefix");
    }
    NetAddress address;
    try {
      address = NetAddress.parse(addressText);
    } catch (IllegalArgumentException e) {
      if (e.getMessage().startsWith("IPv4-mapped")) {
        throw new IllegalArgumentException("IPv4-mapped IPv6 address " + GoText.quote(raw) + " is not allowed");
      }
      throw error(raw, "ParseAddr(" + GoText.quote(addressText) + "): " + e.getMessage()
          .substring(e.getMessage().indexOf("): ") + 3));
    }
    String bitsText = raw.substring(slash + 1);
    if (bitsText.isEmpty() || !bitsText.chars().allMatch(Character::isDigit)
        || bitsText.length() > 1 && bitsText.charAt(0) == '0') {
      throw error(raw, "bad bits after slash: " + GoText.quote(bitsText));
    }
    int bits = bitsText.length() > 3 ? Integer.MAX_VALUE : Integer.parseInt(bitsText);
    if (bits > (address.family() == 4 ? 32 : 128)) {
      throw error(raw, "prefix length out of range");
    }
    return new NetPrefix(address, bits);
  }

  private static IllegalArgumentException error(String raw, String message) {
    return new IllegalArgumentException("network address parse error during conversion from string: "
        + "netip.ParsePrefix(" + GoText.quote(raw) + "): " + message);
  }

  /** Whether the address is inside this prefix (same family, same leading bits). */
  boolean contains(NetAddress ip) {
    return ip.family() == address.family() && sameLeadingBits(address.bytes(), ip.bytes(), bits);
  }

  /** kube's {@code containsCIDR}: the prefixes overlap and this one is not longer. */
  boolean containsPrefix(NetPrefix other) {
    return other.address.family() == address.family() && bits <= other.bits
        && sameLeadingBits(address.bytes(), other.address.bytes(), bits);
  }

  /** The prefix with its host bits cleared. */
  NetPrefix masked() {
    byte[] b = address.bytes();
    for (int i = 0; i < b.length; i++) {
      int keep = Math.max(0, Math.min(8, bits - 8 * i));
      b[i] = (byte) (b[i] & (0xff << (8 - keep)));
    }
    return new NetPrefix(NetAddress.of(b), bits);
  }

  private static boolean sameLeadingBits(byte[] a, byte[] b, int bits) {
    for (int i = 0; i < a.length; i++) {
      int keep = Math.max(0, Math.min(8, bits - 8 * i));
      int mask = 0xff << (8 - keep) & 0xff;
      if ((a[i] & mask) != (b[i] & mask)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return address + "/" + bits;
  }
}
