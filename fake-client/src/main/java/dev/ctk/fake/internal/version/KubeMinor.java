package dev.ctk.fake.internal.version;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes minor version the fake emulates, and the behaviours that depend on it. Every behaviour is a method
 * named after what changes, with the minor it changed in, so a reader finds the whole list here.
 *
 * <pre>{@code
 * KubeMinor minor = KubeMinor.parse("1.34");   // also "v1.34", "1.34.4"
 * minor.fieldValuesAsJson();                   // true: 1.34 prints a field error's value as JSON
 * }</pre>
 *
 * @param minor the minor number, e.g. {@code 32}
 */
public record KubeMinor(int minor) {

  /** The lowest minor the fake emulates. */
  public static final int OLDEST = 32;
  /** The highest minor the fake emulates. */
  public static final int NEWEST = 37;
  /** What the fake emulates unless told otherwise. */
  public static final KubeMinor DEFAULT = new KubeMinor(OLDEST);

  /** The first minor that prints a field error's value as JSON ({@link #fieldValuesAsJson()}). */
  public static final int FIELD_VALUES_AS_JSON = 34;

  /**
   * The first minor whose failed CRD validation rule prints the value itself (a string, number or bool; nothing for
   * objects and lists) where earlier minors print the schema type ({@code "object"}); kubernetes/kubernetes#132798,
   * merged for 1.35. Seen on 1.35.4, 1.36.3 and 1.37.2; not on 1.34.4.
   */
  public static final int CEL_FAILURE_SHOWS_VALUE = 35;

  /**
   * The first minor that reports a changed {@code metadata.uid} once, where earlier minors report it twice (from the
   * common metadata checks and again from the kind's update validation). Seen on 1.37.2; 1.36.3 and 1.35.4 report it
   * twice.
   */
  public static final int UID_REPORTED_ONCE = 37;

  /**
   * The only emulated minor whose WatchList feature is off by default (kube turned it on in 1.32, off in 1.33, on
   * again in 1.34): there a watch from no resourceVersion is not made a watch-list.
   */
  public static final int WATCH_LIST_OFF = 33;

  /** The first minor whose custom resources' {@code /status} resets metadata ({@link #customStatusResetsMetadata}). */
  public static final int CUSTOM_STATUS_RESETS_METADATA = 36;

  /** The first minor whose initial-events-end BOOKMARK has no list blueprint ({@link #initialEventsListBlueprint}). */
  public static final int WATCH_LIST_WITHOUT_BLUEPRINT = 34;

  private static final Pattern VERSION = Pattern.compile("v?1\\.(\\d{1,3})(?:\\.\\d+)?");

  /**
   * Checks the range.
   *
   * @param minor the minor number
   * @throws IllegalArgumentException outside {@value #OLDEST} to {@value #NEWEST}
   */
  public KubeMinor {
    if (minor < OLDEST || minor > NEWEST) {
      throw new IllegalArgumentException("Kubernetes 1." + minor + " is not one the fake emulates; it emulates "
          + supported() + ". Choose one of them (the nearest to your cluster), or test against that version with "
          + "envtest mode.");
    }
  }

  /**
   * Parses {@code 1.34}, {@code v1.34} or {@code 1.34.4} (the patch is ignored: each minor behaves as its newest
   * patch).
   *
   * @param text the version
   * @return the minor
   * @throws IllegalArgumentException for text that is not a Kubernetes 1.x version, or a minor not emulated
   */
  public static KubeMinor parse(String text) {
    Matcher m = text == null ? null : VERSION.matcher(text.strip());
    if (m == null || !m.matches()) {
      throw new IllegalArgumentException("withKubernetesVersion(" + (text == null ? "null" : "\"" + text + "\"")
          + "): not a Kubernetes version; write the minor, e.g. \"1.34\" (one of " + supported() + ")");
    }
    return new KubeMinor(Integer.parseInt(m.group(1)));
  }

  /** The minors the fake emulates, e.g. {@code [1.32, 1.33, ...]}. */
  public static List<String> supported() {
    return java.util.stream.IntStream.rangeClosed(OLDEST, NEWEST).mapToObj(m -> "1." + m).toList();
  }

  /** {@code 1.34}. */
  @Override
  public String toString() {
    return "1." + minor;
  }

  /** {@code /version}'s {@code gitVersion}: {@code v1.34.0-ctk-fake}. */
  public String gitVersion() {
    return "v1." + minor + ".0-ctk-fake";
  }

  /**
   * 1.33 added {@code emulationMajor}, {@code emulationMinor}, {@code minCompatibilityMajor} and
   * {@code minCompatibilityMinor} to {@code /version} (compatibility versions, KEP-4330).
   */
  public boolean versionHasCompatibilityFields() {
    return minor >= 33;
  }

  /** The lowest minor this one can emulate, as {@code /version}'s {@code minCompatibilityMinor} says: one less. */
  public int minCompatibilityMinor() {
    return minor - 1;
  }

  /**
   * 1.33 serves {@code pods/resize} (in-place Pod resize, beta) and lists it in discovery: a write there changes only
   * the containers' {@code resources} and {@code resizePolicy}.
   */
  public boolean servesPodResize() {
    return minor >= 33;
  }

  /**
   * Whether a watch from no resourceVersion (or {@code "0"}) that names neither {@code sendInitialEvents} nor a
   * {@code resourceVersionMatch} is served as a watch-list ({@code sendInitialEvents=true}, ending its initial events
   * with a BOOKMARK when bookmarks are allowed): kube's WatchList feature, on by default except in 1.33.
   *
   * @return {@code false} for 1.33 only
   */
  public boolean watchListByDefault() {
    return minor != WATCH_LIST_OFF;
  }

  /**
   * Whether the BOOKMARK ending a watch-list's initial events also carries
   * {@code kubernetes.io/initial-events-list-blueprint} (an empty list of the kind, base64-encoded): seen on 1.32.13,
   * gone from 1.34 on (1.34.4 and 1.37.2 send only {@code k8s.io/initial-events-end}).
   *
   * @return {@code true} before {@value #WATCH_LIST_WITHOUT_BLUEPRINT}
   */
  public boolean initialEventsListBlueprint() {
    return minor < WATCH_LIST_WITHOUT_BLUEPRINT;
  }

  /**
   * Whether an apply to a custom resource's {@code /status} owns none of the metadata it sends (the status strategy's
   * reset fields are {@code metadata} and {@code spec}); before, only {@code spec} is reset, so the applier owns the
   * labels and annotations it sends though they are not saved. Seen on 1.37.2; 1.32.13 and 1.34.4 own them.
   *
   * @return {@code true} from {@value #CUSTOM_STATUS_RESETS_METADATA}
   */
  public boolean customStatusResetsMetadata() {
    return minor >= CUSTOM_STATUS_RESETS_METADATA;
  }

  /**
   * 1.34 prints a field error's value as JSON ({@code {"matchLabels":{...}}}, {@code ["10.0.0.1"]}, {@code 0}) where
   * earlier minors print Go syntax ({@code v1.LabelSelector{...}}, {@code []string{"10.0.0.1"}}, {@code 0x0}).
   */
  public boolean fieldValuesAsJson() {
    return minor >= FIELD_VALUES_AS_JSON;
  }

  /**
   * 1.37 defaults a RollingUpdate StatefulSet's {@code rollingUpdate.maxUnavailable} to 1 (the
   * MaxUnavailableStatefulSet feature, on by default from 1.37; on in 1.35.0 to 1.35.3, then turned off again).
   */
  public boolean defaultsStatefulSetMaxUnavailable() {
    return minor >= 37;
  }
}
