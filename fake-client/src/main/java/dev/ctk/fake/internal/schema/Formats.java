package dev.ctk.fake.internal.schema;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The OpenAPI {@code format}s kube-apiserver validates in custom resources (it ignores every other format, and so
 * does the fake): names are compared without dashes, as go-openapi normalizes them ({@code date-time} is
 * {@code datetime}).
 *
 * <p>Checked: {@code date-time}, {@code date}, {@code uuid}, {@code uuid3}, {@code uuid4}, {@code uuid5},
 * {@code byte} (standard base64 with padding), {@code ipv4}, {@code ipv6}, {@code cidr}, {@code mac},
 * {@code hostname}, {@code email}, {@code uri}, {@code duration}, {@code bsonobjectid}, {@code hexcolor},
 * {@code ssn}. Accepted without a check (kube checks them, the fake does not): {@code isbn}, {@code isbn10},
 * {@code isbn13}, {@code creditcard}, {@code rgbcolor}; {@code password} is any string for kube too. The checks
 * follow go-openapi's rules closely but not byte for byte (for example {@code email} only needs
 * {@code local@domain}).
 */
final class Formats {

  /** kube's supported formats, normalized. */
  private static final Set<String> SUPPORTED = Set.of("bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6",
      "cidr", "mac", "uuid", "uuid3", "uuid4", "uuid5", "isbn", "isbn10", "isbn13", "creditcard", "ssn", "hexcolor",
      "rgbcolor", "byte", "password", "date", "duration", "datetime");

  private static final Pattern DATE_TIME = Pattern.compile(
      "\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:?\\d{2})?");
  private static final Pattern UUID = Pattern.compile(
      "(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}");
  private static final Pattern UUID3 = Pattern.compile(
      "(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}");
  private static final Pattern UUID4 = Pattern.compile(
      "(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}");
  private static final Pattern UUID5 = Pattern.compile(
      "(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}");
  private static final Pattern MAC = Pattern.compile(
      "([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}|([0-9A-Fa-f]{2}[:-]){7}[0-9A-Fa-f]{2}|([0-9A-Fa-f]{4}\\.){2}[0-9A-Fa-f]{4}");
  private static final Pattern HOSTNAME = Pattern.compile(
      "(?i)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\\.?");
  private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+");
  private static final Pattern DURATION = Pattern.compile(
      "([+-]?(\\d+(\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h))+|0|\\d+\\s*(ns|us|ms|s|m|h|d|w|"
          + "nanoseconds?|microseconds?|milliseconds?|seconds?|minutes?|hours?|days?|weeks?)");
  private static final Pattern BSON_OBJECT_ID = Pattern.compile("[0-9a-fA-F]{24}");
  private static final Pattern HEX_COLOR = Pattern.compile("#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})");
  private static final Pattern SSN = Pattern.compile("\\d{3}[- ]?\\d{2}[- ]?\\d{4}");
  private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

  private Formats() {}

  /** Whether kube validates this format (after its normalization). */
  static boolean supported(String format) {
    return SUPPORTED.contains(normalize(format));
  }

  /** Whether a string is valid for a supported format. */
  static boolean valid(String format, String value) {
    return switch (normalize(format)) {
      case "datetime" -> DATE_TIME.matcher(value).matches();
      case "date" -> date(value);
      case "uuid" -> UUID.matcher(value).matches();
      case "uuid3" -> UUID3.matcher(value).matches();
      case "uuid4" -> UUID4.matcher(value).matches();
      case "uuid5" -> UUID5.matcher(value).matches();
      case "byte" -> base64(value);
      case "ipv4" -> ipv4(value);
      case "ipv6" -> value.contains(":") && ip(value);
      case "cidr" -> cidr(value);
      case "mac" -> MAC.matcher(value).matches();
      case "hostname" -> value.length() <= 255 && HOSTNAME.matcher(value).matches();
      case "email" -> EMAIL.matcher(value).matches();
      case "uri" -> uri(value);
      case "duration" -> DURATION.matcher(value).matches();
      case "bsonobjectid" -> BSON_OBJECT_ID.matcher(value).matches();
      case "hexcolor" -> HEX_COLOR.matcher(value).matches();
      case "ssn" -> SSN.matcher(value).matches();
      default -> true;
    };
  }

  private static String normalize(String format) {
    return format.replace("-", "").toLowerCase(Locale.ROOT);
  }

  private static boolean date(String value) {
    try {
      LocalDate.parse(value);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static boolean base64(String value) {
    if (value.length() % 4 != 0) {
      return false;
    }
    try {
      Base64.getDecoder().decode(value);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean ipv4(String value) {
    var m = IPV4.matcher(value);
    if (!m.matches()) {
      return false;
    }
    for (int i = 1; i <= 4; i++) {
      if (Integer.parseInt(m.group(i)) > 255) {
        return false;
      }
    }
    return true;
  }

  private static boolean ip(String value) {
    if (!value.matches("[0-9a-fA-F:.]+")) {
      return false;
    }
    try {
      InetAddress.getByName(value);
      return true;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static boolean cidr(String value) {
    int slash = value.indexOf('/');
    if (slash < 0) {
      return false;
    }
    String address = value.substring(0, slash);
    String bits = value.substring(slash + 1);
    if (!bits.matches("\\d{1,3}")) {
      return false;
    }
    int prefix = Integer.parseInt(bits);
    if (ipv4(address)) {
      return prefix <= 32;
    }
    return address.contains(":") && ip(address) && prefix <= 128;
  }

  private static boolean uri(String value) {
    try {
      URI uri = new URI(value);
      return uri.isAbsolute() || value.startsWith("/");
    } catch (URISyntaxException e) {
      return false;
    }
  }
}
