package dev.ctk.fake.internal.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import dev.ctk.fake.internal.select.LabelValidation;
import dev.ctk.fake.internal.status.GoText;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * kube's format library ({@code k8s.io/apiserver/pkg/cel/library.Format}): {@code format.named(name)} (an optional
 * format), {@code format.dns1123Label()} and the other named formats, and {@code f.validate(s)} (none when valid,
 * else the list of kube's validation messages). Formats: {@code dns1123Label}, {@code dns1123Subdomain},
 * {@code dns1035Label}, {@code qualifiedName}, {@code dns1123LabelPrefix}, {@code dns1123SubdomainPrefix},
 * {@code dns1035LabelPrefix}, {@code labelValue}, {@code uri}, {@code uuid}, {@code byte}, {@code date},
 * {@code datetime}.
 */
final class FormatFunctions {

  static final CelType FORMAT = OpaqueType.create("kubernetes.NamedFormat");

  /** One named format. */
  record Format(String name, Function<String, List<String>> validator) {
  }

  private static final String LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final Pattern LABEL = Pattern.compile(LABEL_FMT);
  private static final Pattern SUBDOMAIN = Pattern.compile(LABEL_FMT + "(\\." + LABEL_FMT + ")*");
  private static final String LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
      + "characters or '-', and must start and end with an alphanumeric character";
  private static final String DNS1035_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
  private static final Pattern DNS1035 = Pattern.compile(DNS1035_FMT);
  private static final String DNS1035_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters "
      + "or '-', start with an alphabetic character, and end with an alphanumeric character";
  private static final Pattern UUID = Pattern.compile(
      "(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}");

  static final Map<String, Format> FORMATS = formats();

  private FormatFunctions() {}

  private static Map<String, Format> formats() {
    Map<String, Format> out = new LinkedHashMap<>();
    out.put("dns1123Label", new Format("DNS1123Label", s -> dns1123Label(s)));
    out.put("dns1123Subdomain", new Format("DNS1123Subdomain", LabelValidation::subdomainErrors));
    out.put("dns1035Label", new Format("DNS1035Label", s -> dns1035Label(s)));
    out.put("qualifiedName", new Format("QualifiedName", LabelValidation::keyErrors));
    out.put("dns1123LabelPrefix", new Format("DNS1123LabelPrefix", s -> dns1123Label(maskTrailingDash(s))));
    out.put("dns1123SubdomainPrefix", new Format("DNS1123SubdomainPrefix",
        s -> LabelValidation.subdomainErrors(maskTrailingDash(s))));
    out.put("dns1035LabelPrefix", new Format("DNS1035LabelPrefix", s -> dns1035Label(maskTrailingDash(s))));
    out.put("labelValue", new Format("LabelValue", LabelValidation::valueErrors));
    out.put("uri", new Format("URI", FormatFunctions::uri));
    out.put("uuid", new Format("uuid", s -> UUID.matcher(s).matches() ? List.of()
        : List.of("does not match the UUID format")));
    out.put("byte", new Format("byte", s -> base64(s) ? List.of() : List.of("invalid base64")));
    out.put("date", new Format("date", s -> date(s) ? List.of() : List.of("invalid date")));
    out.put("datetime", new Format("datetime", s -> dateTime(s) ? List.of() : List.of("invalid datetime")));
    return out;
  }

  static List<CelFunctionDecl> declarations() {
    List<CelFunctionDecl> out = new ArrayList<>();
    out.add(CelFunctionDecl.newFunctionDeclaration("format.named", CelOverloadDecl.newGlobalOverload(
        "format-named", OptionalType.create(FORMAT), SimpleType.STRING)));
    out.add(CelFunctionDecl.newFunctionDeclaration("validate", CelOverloadDecl.newMemberOverload("format-validate",
        OptionalType.create(ListType.create(SimpleType.STRING)), FORMAT, SimpleType.STRING)));
    FORMATS.keySet().forEach(name -> out.add(CelFunctionDecl.newFunctionDeclaration("format." + name,
        CelOverloadDecl.newGlobalOverload("format." + name, FORMAT))));
    return out;
  }

  static List<CelFunctionBinding> bindings() {
    List<CelFunctionBinding> out = new ArrayList<>();
    out.add(CelFunctionBinding.from("format-named", String.class, name -> Optional.ofNullable(FORMATS.get(name))));
    out.add(CelFunctionBinding.from("format-validate", Format.class, String.class, (format, value) -> {
      List<String> errors = format.validator().apply(value);
      return errors.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(errors));
    }));
    FORMATS.forEach((name, format) -> out.add(CelFunctionBinding.from("format." + name, List.of(), args -> format)));
    return out;
  }

  private static List<String> dns1123Label(String value) {
    List<String> errors = new ArrayList<>();
    if (value.getBytes(StandardCharsets.UTF_8).length > 63) {
      errors.add("must be no more than 63 characters");
    }
    if (!LABEL.matcher(value).matches()) {
      errors.add(SUBDOMAIN.matcher(value).matches() ? "must not contain dots"
          : LabelValidation.regexError(LABEL_MSG, LABEL_FMT, "my-name", "123-abc"));
    }
    return errors;
  }

  private static List<String> dns1035Label(String value) {
    List<String> errors = new ArrayList<>();
    if (value.getBytes(StandardCharsets.UTF_8).length > 63) {
      errors.add("must be no more than 63 characters");
    }
    if (!DNS1035.matcher(value).matches()) {
      errors.add(LabelValidation.regexError(DNS1035_MSG, DNS1035_FMT, "my-name", "abc-123"));
    }
    return errors;
  }

  private static String maskTrailingDash(String value) {
    return value.length() > 1 && value.endsWith("-") ? value.substring(0, value.length() - 2) + "a" : value;
  }

  private static List<String> uri(String value) {
    try {
      GoUrl.parseRequestUri(value);
      return List.of();
    } catch (IllegalArgumentException e) {
      return List.of("parse " + GoText.quote(value) + ": " + e.getMessage());
    }
  }

  private static boolean base64(String value) {
    try {
      Base64.getDecoder().decode(value);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean date(String value) {
    try {
      LocalDate.parse(value);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static boolean dateTime(String value) {
    try {
      OffsetDateTime.parse(value);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }
}
