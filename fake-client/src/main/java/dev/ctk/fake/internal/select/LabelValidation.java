package dev.ctk.fake.internal.select;


import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * kube's label key and value rules ({@code IsQualifiedName}, {@code IsValidLabelValue}) with their
 * exact texts (public: admission validation reuses them), and Go's {@code %q} quoting used by kube's
 * {@code Invalid value: "..."} messages.
 */
public final class LabelValidation {

  private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final String QUALIFIED_NAME_MSG =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  private static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";
  private static final String LABEL_VALUE_MSG =
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
  private static final String DNS1123_SUBDOMAIN_MSG =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

  private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);
  private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FMT);
  private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);

  /** Keys found valid, so that the few keys a test writes again and again are checked once; bounded. */
  private static final Set<String> VALID_KEYS = ConcurrentHashMap.newKeySet();
  private static final int MAX_VALID_KEYS = 4_096;

  private LabelValidation() {}

  /** Problems with a label key ({@code [prefix/]name}); empty when valid. */
  public static List<String> keyErrors(String key) {
    if (VALID_KEYS.contains(key)) {
      return new ArrayList<>();
    }
    List<String> errors = checkKey(key);
    if (errors.isEmpty()) {
      if (VALID_KEYS.size() >= MAX_VALID_KEYS) {
        VALID_KEYS.clear();
      }
      VALID_KEYS.add(key);
    }
    return errors;
  }

  private static List<String> checkKey(String key) {
    List<String> errors = new ArrayList<>();
    String[] parts = key.split("/", -1);
    String name;
    if (parts.length == 1) {
      name = parts[0];
    } else if (parts.length == 2) {
      String prefix = parts[0];
      name = parts[1];
      if (prefix.isEmpty()) {
        errors.add("prefix part must be non-empty");
      } else {
        for (String error : subdomainErrors(prefix)) {
          errors.add("prefix part " + error);
        }
      }
    } else {
      errors.add("a qualified name " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
          + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errors;
    }
    if (name.isEmpty()) {
      errors.add("name part must be non-empty");
    } else if (bytes(name) > 63) {
      errors.add("name part must be no more than 63 characters");
    }
    if (!QUALIFIED_NAME.matcher(name).matches()) {
      errors.add("name part " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"));
    }
    return errors;
  }

  /** Problems with a label value; empty when valid. */
  public static List<String> valueErrors(String value) {
    List<String> errors = new ArrayList<>();
    if (bytes(value) > 63) {
      errors.add("must be no more than 63 characters");
    }
    if (!LABEL_VALUE.matcher(value).matches()) {
      errors.add(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
    }
    return errors;
  }

  /** Problems with a DNS-1123 subdomain ({@code IsDNS1123Subdomain}); empty when valid. */
  public static List<String> subdomainErrors(String value) {
    List<String> errors = new ArrayList<>();
    if (bytes(value) > 253) {
      errors.add("must be no more than 253 characters");
    }
    if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
      errors.add(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
    }
    return errors;
  }

  /** kube's {@code RegexError}, including its doubled space before "or". */
  public static String regexError(String message, String format, String... examples) {
    StringBuilder text = new StringBuilder(message).append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      if (i > 0) {
        text.append(" or ");
      }
      text.append('\'').append(examples[i]).append("', ");
    }
    return text.append("regex used for validation is '").append(format).append("')").toString();
  }

  private static int bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }
}
