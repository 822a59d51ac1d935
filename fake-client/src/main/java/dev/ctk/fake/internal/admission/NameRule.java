package dev.ctk.fake.internal.admission;

import dev.ctk.fake.internal.select.LabelValidation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The rules kube applies to {@code metadata.name} (and to {@code generateName}, as a prefix), per kind: a DNS-1123
 * subdomain for most kinds, a DNS-1123 label for Namespace, a DNS-1035 label for Service, a path segment for the
 * RBAC kinds. The texts are kube's ({@code k8s.io/apimachinery/pkg/util/validation}).
 */
enum NameRule {
  /** {@code IsDNS1123Subdomain}: ConfigMap, Secret, Pod, Deployment, Job, custom resources, ... */
  DNS1123_SUBDOMAIN,
  /** {@code IsDNS1123Label}: Namespace (and container names). */
  DNS1123_LABEL,
  /** {@code IsDNS1035Label}: Service. */
  DNS1035_LABEL,
  /** {@code IsValidPathSegmentName}: Role, ClusterRole, RoleBinding, ClusterRoleBinding. */
  PATH_SEGMENT;

  private static final String LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final Pattern LABEL = Pattern.compile(LABEL_FMT);
  private static final String LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
      + "characters or '-', and must start and end with an alphanumeric character";
  private static final Pattern SUBDOMAIN = Pattern.compile(LABEL_FMT + "(\\." + LABEL_FMT + ")*");
  private static final String DNS1035_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
  private static final Pattern DNS1035 = Pattern.compile(DNS1035_FMT);
  private static final String DNS1035_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters "
      + "or '-', start with an alphabetic character, and end with an alphanumeric character";

  /**
   * The problems with a name; empty when valid.
   *
   * @param prefix whether the value is a {@code generateName} prefix (a trailing '-' is then allowed, as kube
   *     masks it before checking)
   */
  List<String> problems(String value, boolean prefix) {
    String checked = prefix && value.endsWith("-") ? value.substring(0, value.length() - 1) + "a" : value;
    return switch (this) {
      case DNS1123_SUBDOMAIN -> LabelValidation.subdomainErrors(checked);
      case DNS1123_LABEL -> dns1123Label(checked);
      case DNS1035_LABEL -> dns1035Label(checked);
      case PATH_SEGMENT -> pathSegment(value, prefix);
    };
  }

  /** kube's {@code IsDNS1123Label}. */
  static List<String> dns1123Label(String value) {
    List<String> errors = new ArrayList<>();
    if (bytes(value) > 63) {
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
    if (bytes(value) > 63) {
      errors.add("must be no more than 63 characters");
    }
    if (!DNS1035.matcher(value).matches()) {
      errors.add(LabelValidation.regexError(DNS1035_MSG, DNS1035_FMT, "my-name", "abc-123"));
    }
    return errors;
  }

  private static List<String> pathSegment(String value, boolean prefix) {
    List<String> errors = new ArrayList<>();
    if (!prefix && (value.equals(".") || value.equals(".."))) {
      errors.add("may not be '" + value + "'");
      return errors;
    }
    if (value.contains("/")) {
      errors.add("may not contain '/'");
    }
    if (value.contains("%")) {
      errors.add("may not contain '%'");
    }
    return errors;
  }

  private static int bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }
}
