package dev.ctk.harness.internal;

import java.time.Duration;

/**
 * The names of the settings the harness's own messages mention, so that they read the same whichever adapter set
 * them (JUnit's {@code @Perturbed} and {@code @ControllerTest} constants are these).
 */
public final class SettingNames {

  /** Turns perturbation campaigns on or off. */
  public static final String PERTURB = "ctk.perturb";

  /** Replays one perturbed run by its id. */
  public static final String PERTURB_REPLAY = "ctk.perturb.replay";

  /** The most perturbed runs of one campaign. */
  public static final String PERTURB_MAX_RUNS = "ctk.perturb.max-runs";

  /** The seed that picks the runs of a campaign when there are more points than runs. */
  public static final String PERTURB_SEED = "ctk.perturb.seed";

  /** What a campaign that finds nothing to perturb does: {@code fail} or {@code warn}. */
  public static final String PERTURB_NOTHING_TO_PERTURB = "ctk.perturb.nothing-to-perturb";

  /** How many perturbed runs of one campaign run side by side: {@code ctk.perturb.parallel-runs}. */
  public static final String PERTURB_PARALLEL_RUNS = "ctk.perturb.parallel-runs";
  /** Whether a perturbed run's waits stop once nothing can change ({@code true}, the default). */
  public static final String PERTURB_STOP_EARLY = "ctk.perturb.stop-early";

  /** The folder of the HTML timelines and perturbation reports. */
  public static final String REPORT_DIR = "ctk.report-dir";

  /** The folder of the reports when nothing names one. */
  public static final String DEFAULT_REPORT_DIR = "target/ctk-reports";

  /** The most perturbed runs of a campaign when nothing sets {@link #PERTURB_MAX_RUNS}. */
  public static final int DEFAULT_MAX_RUNS = 24;

  /** How long the controllers may take to go idle after the test, in every run of a campaign. */
  public static final Duration SETTLE = Duration.ofSeconds(10);

  private SettingNames() {}
}
