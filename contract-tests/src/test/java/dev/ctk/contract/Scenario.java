package dev.ctk.contract;

import dev.ctk.fake.FakeCluster;
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
  private final UnaryOperator<FakeCluster.Builder> fakeOptions;
  private final Body body;

  private Scenario(Builder b, Body body) {
    this.group = b.group;
    this.name = b.name;
    this.knownDifferences = Collections.unmodifiableMap(new LinkedHashMap<>(b.knownDifferences));
    this.fakeOptions = b.fakeOptions;
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
   * Options for the fake this scenario runs on, applied after the suite's own (garbage collection off).
   *
   * @param builder the fake's builder
   * @return the builder to build
   */
  FakeCluster.Builder configureFake(FakeCluster.Builder builder) {
    return fakeOptions.apply(builder);
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
    private UnaryOperator<FakeCluster.Builder> fakeOptions = UnaryOperator.identity();

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
