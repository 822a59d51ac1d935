package dev.ctk.contract;

import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.values.GarbageCollection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * One behaviour of the API server, written once against a {@link ContractTarget} and run on the fake and on every
 * real server. A scenario may declare known differences: observation keys where the fake deliberately differs, or
 * where the kube-apiserver version at hand differs from the kube 1.3x behaviour the fake emulates; those are
 * reported, not failed.
 *
 * <pre>{@code
 * Scenario.named("writes", "create of an existing name answers 409 AlreadyExists")
 *     .body((t, o) -> {
 *       t.create(t.core("configmaps"), "{\"metadata\":{\"name\":\"web\"}}");
 *       o.check("again", t.api().post(t.core("configmaps"), "{\"metadata\":{\"name\":\"web\"}}").outcome(),
 *           "409 AlreadyExists");
 *     });
 * }</pre>
 */
public final class Scenario {

  /**
   * A scenario's test body.
   */
  @FunctionalInterface
  public interface Body {

    /**
     * Runs against one target, recording what it sees.
     *
     * @param target the server, its client and the scenario's fresh namespace
     * @param observation where values go
     * @throws Exception anything unexpected: recorded and fails the scenario on that target
     */
    void run(ContractTarget target, Observation observation) throws Exception;
  }

  private final String group;
  private final String name;
  private final Map<String, String> knownDifferences;
  private final Map<String, VersionedDifference> knownDifferencesBefore;
  private final Map<String, VersionedDifference> knownDifferencesFrom;
  private final UnaryOperator<FakeCluster.Builder> fakeOptions;
  private final boolean clusterControllers;
  private final Body body;

  private Scenario(Builder b, Body body) {
    this.group = b.group;
    this.name = b.name;
    this.knownDifferences = Collections.unmodifiableMap(new LinkedHashMap<>(b.knownDifferences));
    this.knownDifferencesBefore = Collections.unmodifiableMap(new LinkedHashMap<>(b.knownDifferencesBefore));
    this.knownDifferencesFrom = Collections.unmodifiableMap(new LinkedHashMap<>(b.knownDifferencesFrom));
    this.fakeOptions = b.fakeOptions;
    this.clusterControllers = b.clusterControllers;
    this.body = Objects.requireNonNull(body, "body");
  }

  /**
   * Starts a scenario.
   *
   * @param group the area, e.g. {@code writes}
   * @param name the behaviour, as a sentence
   * @return a builder
   */
  public static Builder named(String group, String name) {
    return new Builder(group, name);
  }

  /**
   * The area.
   *
   * @return e.g. {@code writes}
   */
  public String group() {
    return group;
  }

  /**
   * The behaviour.
   *
   * @return the sentence
   */
  public String name() {
    return name;
  }

  /**
   * {@code group: name}.
   *
   * @return the display name
   */
  public String displayName() {
    return group + ": " + name;
  }

  /**
   * Known differences: key pattern (a key, or a prefix followed by {@code *}) to reason.
   *
   * @return the declared differences
   */
  public Map<String, String> knownDifferences() {
    return knownDifferences;
  }

  /**
   * The reason declared for a key, or {@code null}.
   *
   * @param key an observation key
   * @return the reason
   */
  public String knownDifference(String key) {
    for (Map.Entry<String, String> e : knownDifferences.entrySet()) {
      String pattern = e.getKey();
      if (pattern.equals(key) || pattern.endsWith("*") && key.startsWith(pattern.substring(0, pattern.length() - 1))) {
        return e.getValue();
      }
    }
    return null;
  }

  /**
   * The reason declared for a key on a server of a given version: a {@link #knownDifference(String)}, or a
   * {@link Builder#knownDifferenceBefore} whose version is above the server's, or a
   * {@link Builder#knownDifferenceFrom} whose version is the server's or below; else {@code null}.
   *
   * @param key an observation key
   * @param serverVersion the real server's {@code gitVersion}, e.g. {@code v1.20.2}
   * @return the reason
   */
  public String knownDifference(String key, String serverVersion) {
    String always = knownDifference(key);
    if (always != null) {
      return always;
    }
    for (Map.Entry<String, VersionedDifference> e : knownDifferencesBefore.entrySet()) {
      String pattern = e.getKey();
      boolean matches = pattern.equals(key)
          || pattern.endsWith("*") && key.startsWith(pattern.substring(0, pattern.length() - 1));
      if (matches && older(serverVersion, e.getValue().version())) {
        return e.getValue().reason() + " (this server is " + serverVersion + ")";
      }
    }
    for (Map.Entry<String, VersionedDifference> e : knownDifferencesFrom.entrySet()) {
      String pattern = e.getKey();
      boolean matches = pattern.equals(key)
          || pattern.endsWith("*") && key.startsWith(pattern.substring(0, pattern.length() - 1));
      if (matches && majorMinor(serverVersion) != null && !older(serverVersion, e.getValue().version())) {
        return e.getValue().reason() + " (this server is " + serverVersion + ")";
      }
    }
    return null;
  }

  /** Whether {@code v1.20.2} is older than {@code 1.25}; an unreadable version counts as not older. */
  static boolean older(String serverVersion, String version) {
    int[] server = majorMinor(serverVersion);
    int[] limit = majorMinor(version);
    if (server == null || limit == null) {
      return false;
    }
    return server[0] < limit[0] || server[0] == limit[0] && server[1] < limit[1];
  }

  private static int[] majorMinor(String version) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("v?(\\d+)\\.(\\d+).*").matcher(
        version == null ? "" : version);
    return m.matches() ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))} : null;
  }

  /** A known difference of servers older than a version, or (for {@code knownDifferenceFrom}) from it on. */
  private record VersionedDifference(String version, String reason) {
  }

  /**
   * Whether the scenario observes kube-controller-manager's garbage collector or namespace controller (see
   * {@link Builder#needsClusterControllers()}).
   *
   * @return {@code true} when a real server without them skips it
   */
  public boolean needsClusterControllers() {
    return clusterControllers;
  }

  /**
   * Options for the fake this scenario runs on, applied after the suite's own (garbage collection off; on, as a
   * cluster runs it, for a scenario that {@link #needsClusterControllers()}).
   *
   * @param builder the fake's builder
   * @return the builder to build
   */
  FakeCluster.Builder configureFake(FakeCluster.Builder builder) {
    return fakeOptions.apply(clusterControllers ? builder.withGarbageCollection(GarbageCollection.ASYNCHRONOUS)
        : builder);
  }

  void run(ContractTarget target, Observation observation) throws Exception {
    body.run(target, observation);
  }

  @Override
  public String toString() {
    return displayName();
  }

  /**
   * Describes a scenario.
   */
  public static final class Builder {

    private final String group;
    private final String name;
    private final Map<String, String> knownDifferences = new LinkedHashMap<>();
    private final Map<String, VersionedDifference> knownDifferencesBefore = new LinkedHashMap<>();
    private final Map<String, VersionedDifference> knownDifferencesFrom = new LinkedHashMap<>();
    private UnaryOperator<FakeCluster.Builder> fakeOptions = UnaryOperator.identity();
    private boolean clusterControllers;

    private Builder(String group, String name) {
      this.group = Objects.requireNonNull(group, "group");
      this.name = Objects.requireNonNull(name, "name");
    }

    /**
     * Declares that the value(s) under a key may differ between the fake and a real server, and why.
     *
     * @param keyPattern an observation key, or a prefix followed by {@code *}
     * @param reason why they differ, as the README's known limitations will say it
     * @return this builder
     */
    public Builder knownDifference(String keyPattern, String reason) {
      knownDifferences.put(keyPattern, reason);
      return this;
    }

    /**
     * Declares that real servers older than a version differ under a key, because kube added the behaviour in that
     * version; servers from that version on must match the fake there.
     *
     * @param version the first kube version with the behaviour, e.g. {@code 1.25}
     * @param keyPattern an observation key, or a prefix followed by {@code *}
     * @param reason what older servers lack
     * @return this builder
     */
    public Builder knownDifferenceBefore(String version, String keyPattern, String reason) {
      knownDifferencesBefore.put(keyPattern, new VersionedDifference(version, reason));
      return this;
    }

    /**
     * Declares that real servers from a version on differ under a key, because kube changed the behaviour in that
     * version; the fake answers as the kube 1.32 it emulates, which older servers must match there.
     *
     * @param version the first kube version with the changed behaviour, e.g. {@code 1.34}
     * @param keyPattern an observation key, or a prefix followed by {@code *}
     * @param reason what changed
     * @return this builder
     */
    public Builder knownDifferenceFrom(String version, String keyPattern, String reason) {
      knownDifferencesFrom.put(keyPattern, new VersionedDifference(version, reason));
      return this;
    }

    /**
     * Options for the fake (e.g. a small watch history), on top of the suite's.
     *
     * @param options a function of the builder
     * @return this builder
     */
    public Builder fake(UnaryOperator<FakeCluster.Builder> options) {
      this.fakeOptions = Objects.requireNonNull(options, "options");
      return this;
    }

    /**
     * Declares that the scenario observes what kube-controller-manager does (the ownerReference garbage collector,
     * the namespace controller): the fake runs them (asynchronously, as a cluster does), and a real server that
     * does not ({@code ApiServer.runsClusterControllers()} is false: a bare kube-apiserver) skips the scenario with
     * the reason, in the test report and the contract report.
     *
     * @return this builder
     */
    public Builder needsClusterControllers() {
      this.clusterControllers = true;
      return this;
    }

    /**
     * Finishes the scenario with its body.
     *
     * @param body the test body
     * @return the scenario
     */
    public Scenario body(Body body) {
      return new Scenario(this, body);
    }
  }
}
