package dev.ctk.envtest.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes version, or a prefix of one that a user asks for: {@code 1.20}, {@code 1.20.2},
 * {@code v1.20}, {@code 1.20.x}. A wanted version matches every found version it is a prefix of
 * ({@code 1.20} matches {@code 1.20.2}, not {@code 1.2.0} or {@code 1.21.0}).
 *
 * <pre>{@code
 * KubernetesVersion.parse("1.20").matches(KubernetesVersion.parse("1.20.2")); // true
 * }</pre>
 *
 * @param parts the numeric parts, major first (1 to 3 of them)
 */
public record KubernetesVersion(List<Integer> parts) implements Comparable<KubernetesVersion> {

  private static final Pattern VERSION =
      Pattern.compile("v?(\\d+)(?:\\.(\\d+|x|\\*))?(?:\\.(\\d+|x|\\*))?");
  private static final Pattern IN_TEXT = Pattern.compile("v(\\d+)\\.(\\d+)\\.(\\d+)");

  /** Copies the parts. */
  public KubernetesVersion {
    parts = List.copyOf(parts);
  }

  /**
   * Parses what a user asks for; {@code x} and {@code *} mean any value from there on.
   *
   * @param text e.g. {@code 1.20}, {@code v1.20.2}, {@code 1.20.x}
   * @return the version, or empty when the text is not a version
   */
  public static Optional<KubernetesVersion> parse(String text) {
    Matcher matcher = VERSION.matcher(text.strip());
    if (!matcher.matches()) {
      return Optional.empty();
    }
    List<Integer> parts = new ArrayList<>();
    for (int group = 1; group <= 3; group++) {
      String part = matcher.group(group);
      if (part == null || part.equals("x") || part.equals("*")) {
        break;
      }
      parts.add(Integer.parseInt(part));
    }
    return Optional.of(new KubernetesVersion(parts));
  }

  /**
   * Finds the first {@code vMAJOR.MINOR.PATCH} in a text such as {@code Kubernetes v1.20.2}.
   *
   * @param text the output of {@code kube-apiserver --version}
   * @return the version, or empty when the text holds none
   */
  public static Optional<KubernetesVersion> find(String text) {
    Matcher matcher = IN_TEXT.matcher(text);
    if (!matcher.find()) {
      return Optional.empty();
    }
    return Optional.of(
        new KubernetesVersion(
            List.of(
                Integer.parseInt(matcher.group(1)),
                Integer.parseInt(matcher.group(2)),
                Integer.parseInt(matcher.group(3)))));
  }

  /**
   * Whether this wanted version is a prefix of {@code found}.
   *
   * @param found a version found on disk
   * @return whether it matches
   */
  public boolean matches(KubernetesVersion found) {
    return found.parts.size() >= parts.size() && found.parts.subList(0, parts.size()).equals(parts);
  }

  @Override
  public int compareTo(KubernetesVersion other) {
    for (int i = 0; i < Math.min(parts.size(), other.parts.size()); i++) {
      int compared = Integer.compare(parts.get(i), other.parts.get(i));
      if (compared != 0) {
        return compared;
      }
    }
    return Integer.compare(parts.size(), other.parts.size());
  }

  /** The parts joined with dots, e.g. {@code 1.20.2}. */
  @Override
  public String toString() {
    return String.join(".", parts.stream().map(String::valueOf).toList());
  }
}
