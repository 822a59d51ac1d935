package dev.ctk.harness;

import dev.ctk.harness.internal.SettingNames;
import dev.ctk.harness.internal.perturb.FieldPath;
import dev.ctk.harness.values.Perturbation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The programmatic form of {@code @Perturbed}: every test of the class that registers the extension runs as
 * a perturbation campaign, with these settings. Unset values come from the configuration parameters ({@code Perturbed.MAX_RUNS_PROPERTY_NAME}, {@code ctk.perturb.seed}), then the environment, then the
 * defaults, as for {@code @Perturbed}; a {@code @Perturbed} on a test method or a test class is nearer and wins. The
 * end-state comparison always ignores uids, resourceVersions, creation timestamps, generations, managedFields,
 * selfLinks, owner uids, generated-name suffixes, condition times and a Service's allocated addresses, exactly as
 * {@code Perturbed.ignoreFields()} lists them; {@link Builder#withIgnoredFields} adds to them.
 *
 * <pre>{@code
 * @RegisterExtension
 * static ControllerTestExtension ctk = ControllerTestExtension.builder()
 *     .withPerturbations(PerturbationConfig.builder()
 *         .withKinds(Perturbation.CRASH_RESTART, Perturbation.STALE_VIEW)
 *         .withMaxRuns(10)
 *         .withSeed(42)
 *         .withIgnoredFields("status.lastUpdated", "ConfigMap:data.generatedAt")
 *         .build())
 *     .build();
 * }</pre>
 *
 * <p>Immutable; {@link Builder#build()} may be called once.
 *
 * @since 0.1.0
 */
public final class PerturbationConfig {

  private final Set<Perturbation> kinds;
  private final Integer maxRuns;
  private final Long seed;
  private final List<String> ignoredFields;

  private PerturbationConfig(Builder builder) {
    this.kinds = Collections.unmodifiableSet(EnumSet.copyOf(builder.kinds));
    this.maxRuns = builder.maxRuns;
    this.seed = builder.seed;
    this.ignoredFields = List.copyOf(builder.ignoredFields);
  }

  /**
   * Starts a builder: every kind of perturbation, no bound or seed of its own, no ignored fields.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The kinds of perturbation to plan.
   *
   * @return an immutable set, never empty
   */
  public Set<Perturbation> kinds() {
    return kinds;
  }

  /**
   * The most perturbed runs per test, when set.
   *
   * @return the bound, or empty to resolve it from configuration
   */
  public OptionalInt maxRuns() {
    return maxRuns == null ? OptionalInt.empty() : OptionalInt.of(maxRuns);
  }

  /**
   * The seed of the sample, when set.
   *
   * @return the seed, or empty to resolve it from configuration
   */
  public OptionalLong seed() {
    return seed == null ? OptionalLong.empty() : OptionalLong.of(seed);
  }

  /**
   * The fields that may differ from the reference run's end state, as {@code Perturbed.ignoreFields()} writes them:
   * the ones set with {@link Builder#withIgnoredFields}, not those every comparison ignores (listed at {@code Perturbed.ignoreFields()}).
   *
   * @return an immutable list
   */
  public List<String> ignoredFields() {
    return ignoredFields;
  }

  @Override
  public String toString() {
    return "PerturbationConfig{kinds=" + kinds + ", maxRuns=" + maxRuns().stream().boxed().findFirst()
        .map(String::valueOf).orElse("(configuration)") + ", seed=" + Optional.ofNullable(seed)
        .map(String::valueOf).orElse("(configuration)") + ", ignoredFields=" + ignoredFields + "}";
  }

  /**
   * Builds a {@link PerturbationConfig}. Each {@code withX} replaces what was set before, except {@link
   * #withIgnoredFields}, which adds; a bad value fails at once with a message.
   *
   * <pre>{@code
   * PerturbationConfig config = PerturbationConfig.builder().withMaxRuns(8).build();
   * }</pre>
   *
   * @since 0.1.0
   */
  public static final class Builder {

    private Set<Perturbation> kinds = EnumSet.allOf(Perturbation.class);
    private Integer maxRuns;
    private Long seed;
    private final List<String> ignoredFields = new ArrayList<>();
    private boolean built;

    private Builder() {}

    /**
     * Plans only these kinds of perturbation.
     *
     * @param kinds one or more kinds
     * @return this builder
     * @throws IllegalArgumentException if none is given
     */
    public Builder withKinds(Perturbation... kinds) {
      checkNotBuilt();
      Objects.requireNonNull(kinds, "withKinds(null)");
      if (kinds.length == 0) {
        throw new IllegalArgumentException("PerturbationConfig.builder().withKinds(): no kind given. Expected one "
            + "or more of " + Arrays.toString(Perturbation.values()) + "; to run a test without perturbations, "
            + "drop withPerturbations(..) or run with -D" + SettingNames.PERTURB + "=off.");
      }
      EnumSet<Perturbation> set = EnumSet.noneOf(Perturbation.class);
      for (int i = 0; i < kinds.length; i++) {
        set.add(Objects.requireNonNull(kinds[i], "withKinds(..): argument " + i + " is null"));
      }
      this.kinds = set;
      return this;
    }

    /**
     * Bounds the perturbed runs per test; when the plan has more points, a seeded sample of this size runs.
     *
     * @param maxRuns 1 or more
     * @return this builder
     * @throws IllegalArgumentException if below 1
     */
    public Builder withMaxRuns(int maxRuns) {
      checkNotBuilt();
      if (maxRuns < 1) {
        throw new IllegalArgumentException("PerturbationConfig.builder().withMaxRuns(" + maxRuns + "): expected "
            + "1 or more perturbed runs per test. Fix: pass a positive bound, or leave it out for "
            + SettingNames.PERTURB_MAX_RUNS + " (default " + SettingNames.DEFAULT_MAX_RUNS + ").");
      }
      this.maxRuns = maxRuns;
      return this;
    }

    /**
     * Fixes the seed that picks the sample when the plan has more points than the bound.
     *
     * @param seed any number
     * @return this builder
     */
    public Builder withSeed(long seed) {
      checkNotBuilt();
      this.seed = seed;
      return this;
    }

    /**
     * Adds fields that may differ from the reference run's end state, on top of those always ignored (listed at
     * {@code Perturbed.ignoreFields()}): {@code status.lastUpdated}, {@code
     * metadata.annotations["example.com/last-seen"]}, {@code spec.items[*].stamp}, optionally for one kind: {@code
     * ConfigMap:data.generatedAt}.
     *
     * @param paths the paths
     * @return this builder
     * @throws IllegalArgumentException for a path that cannot be read, with what is expected
     */
    public Builder withIgnoredFields(String... paths) {
      checkNotBuilt();
      Objects.requireNonNull(paths, "withIgnoredFields(null)");
      for (int i = 0; i < paths.length; i++) {
        String path = Objects.requireNonNull(paths[i], "withIgnoredFields(..): argument " + i + " is null");
        FieldPath.parse(path, "PerturbationConfig.builder().withIgnoredFields(..)", IllegalArgumentException::new);
        ignoredFields.add(path);
      }
      return this;
    }

    /**
     * Makes the configuration.
     *
     * @return the configuration
     * @throws IllegalStateException if called twice
     */
    public PerturbationConfig build() {
      checkNotBuilt();
      built = true;
      return new PerturbationConfig(this);
    }

    private void checkNotBuilt() {
      if (built) {
        throw new IllegalStateException("This PerturbationConfig.Builder was already built. Fix: start a new one "
            + "with PerturbationConfig.builder() for each configuration.");
      }
    }
  }
}
