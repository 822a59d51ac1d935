package dev.ctk.envtest.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Command-line flags of etcd and kube-apiserver as {@code --name=value} strings: ctk's defaults
 * merged with a user's extra flags, where a later flag replaces an earlier one of the same name in
 * place, and flags that ctk must own are refused with a message.
 *
 * <pre>{@code
 * FlagList.merge(List.of("--v=0", "--authorization-mode=RBAC"), List.of("--v=4"));
 * // [--v=4, --authorization-mode=RBAC]
 * }</pre>
 */
public final class FlagList {

  private FlagList() {}

  /**
   * The name of a flag: the part before {@code =}, e.g. {@code --v} of {@code --v=4}.
   *
   * @param flag the flag
   * @return its name
   */
  public static String nameOf(String flag) {
    int equals = flag.indexOf('=');
    return equals < 0 ? flag : flag.substring(0, equals);
  }

  /**
   * Merges flags: each flag of {@code extras} replaces the flag of the same name (in place), or is
   * appended.
   *
   * @param defaults ctk's flags
   * @param extras the user's flags, in order
   * @return the merged list
   */
  public static List<String> merge(List<String> defaults, List<String> extras) {
    Map<String, String> byName = new LinkedHashMap<>();
    for (String flag : defaults) {
      byName.put(nameOf(flag), flag);
    }
    for (String flag : extras) {
      byName.put(nameOf(flag), flag);
    }
    return new ArrayList<>(byName.values());
  }

  /**
   * Checks a user's flags: each starts with {@code --} and names no flag in {@code owned}.
   *
   * @param method the builder method, for the message, e.g. {@code withApiServerFlags}
   * @param flags the user's flags
   * @param owned flag names that ctk sets itself, each with why or what to use instead
   * @throws IllegalArgumentException on the first bad flag
   */
  public static void check(String method, List<String> flags, Map<String, String> owned) {
    for (String flag : flags) {
      if (flag == null || !flag.startsWith("--") || nameOf(flag).length() < 3) {
        throw new IllegalArgumentException(
            method
                + "(..): \""
                + flag
                + "\" is not a flag. Pass each flag as one string --name=value, e.g. --v=4.");
      }
      String reason = owned.get(nameOf(flag));
      if (reason != null) {
        throw new IllegalArgumentException(
            method + "(..): " + nameOf(flag) + " is set by ctk and cannot be changed: " + reason);
      }
    }
  }
}
