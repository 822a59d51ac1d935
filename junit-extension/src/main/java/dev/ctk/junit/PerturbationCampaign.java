package dev.ctk.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.TestScope;
import dev.ctk.harness.internal.ClusterSpec;
import dev.ctk.harness.internal.SettingNames;
import dev.ctk.harness.internal.perturb.EndState;
import dev.ctk.harness.internal.perturb.PerturbationOracle.Finding;
import dev.ctk.harness.internal.perturb.PerturbationOracle.Outcome;
import dev.ctk.harness.internal.perturb.PerturbationOracle;
import dev.ctk.harness.internal.perturb.PerturbationPlan;
import dev.ctk.harness.internal.perturb.PerturbationPoint;
import dev.ctk.harness.internal.perturb.PerturbationReport.RunResult;
import dev.ctk.harness.internal.perturb.PerturbationReport.Status;
import dev.ctk.harness.internal.perturb.PerturbationReport;
import dev.ctk.harness.internal.perturb.PerturbationRuns;
import dev.ctk.harness.internal.perturb.PerturbationTimeline;
import dev.ctk.harness.internal.perturb.PerturbationTracker;
import dev.ctk.harness.internal.timeline.TimelineReport;
import dev.ctk.harness.values.Mode;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * One test's part in a perturbation campaign, kept in the test method's store (closing it detaches the tracker).
 *
 * <p>In the REFERENCE run (the test as the user runs it) it attaches a {@link PerturbationTracker} without a point in
 * beforeEach; in afterEach, if the test passed, it settles the controllers, reads the trace (controller writes, watch
 * events of the watched kinds, end state), derives the {@link PerturbationPlan}, runs the same test once per point
 * through a nested JUnit Platform launcher (selected by its unique id, see {@link #selection}, with {@value
 * #CAMPAIGN_PROPERTY_NAME} and {@value #RUN_PROPERTY_NAME} set, in fake mode, with the outer ctk settings over the
 * implicit configuration parameters, without parallel execution), judges each run ({@link PerturbationOracle}) and
 * publishes the {@link PerturbationReport}; it fails the test with that report if a run failed, and at once, with a
 * configuration error, if the nested launcher does not find the test again.
 *
 * <p>In a PERTURBED run (inside the nested launcher) it attaches the tracker with the point; in afterEach it settles,
 * reads the end state and the timeline from the live cluster and leaves them in {@link PerturbationRuns}. A perturbed
 * run never starts a campaign of its own.
 */
final class PerturbationCampaign implements AutoCloseable {

  /** The configuration parameter naming the campaign a perturbed run belongs to. */
  static final String CAMPAIGN_PROPERTY_NAME = "ctk.perturb.campaign";

  /** The configuration parameter naming the point a perturbed run injects. */
  static final String RUN_PROPERTY_NAME = "ctk.perturb.run";

  /** How long the controllers may take to go idle after the test, in every run. */
  static final Duration SETTLE = SettingNames.SETTLE;

  /** The segment type of one invocation of a class template ({@code @AcrossModes}). */
  private static final String CLASS_TEMPLATE_INVOCATION = "class-template-invocation";

  /** What a campaign that finds nothing to perturb does: {@code fail} (the default) or {@code warn}. */
  static final String NOTHING_TO_PERTURB_PROPERTY_NAME = Perturbed.NOTHING_TO_PERTURB_PROPERTY_NAME;

  private static final ControllerTestConfig.Setting<Boolean> NOTHING_TO_PERTURB = ControllerTestConfig.Setting.choice(
      NOTHING_TO_PERTURB_PROPERTY_NAME, Boolean.TRUE, ControllerTestConfig.values("fail", Boolean.TRUE, "warn",
      Boolean.FALSE));

  /** JUnit's switch for parallel execution; always off in a perturbed run (it runs one test, on this thread). */
  static final String PARALLEL_PROPERTY_NAME = "junit.jupiter.execution.parallel.enabled";

  /** Other settings a perturbed run takes from the reference run, beside every {@code ctk.*} one. */
  private static final List<String> JUNIT_SETTINGS = List.of("junit.jupiter.extensions.autodetection.enabled",
      "junit.jupiter.testinstance.lifecycle.default", "junit.jupiter.displayname.generator.default");

  private final PerturbationTracker tracker;
  private final FakeCluster cluster;
  private final PerturbationSettings settings;
  private final String campaign;
  private final PerturbationPoint point;
  private final long journalMark;
  private final long startNanos = System.nanoTime();

  private PerturbationCampaign(PerturbationTracker tracker, FakeCluster cluster, PerturbationSettings settings,
      String campaign, PerturbationPoint point, long journalMark) {
    this.tracker = tracker;
    this.cluster = cluster;
    this.settings = settings;
    this.campaign = campaign;
    this.point = point;
    this.journalMark = journalMark;
  }

  /**
   * Attaches a tracker to the test's scope when the test is a perturbed run, or the reference run of a campaign.
   *
   * @return the campaign part, or empty when the test is not perturbed (not asked, {@code ctk.perturb=off}, or not
   *     in fake mode)
   * @throws ExtensionConfigurationException for a bad setting, or with per-class isolation
   */
  static Optional<PerturbationCampaign> attach(ExtensionContext context, BuilderSettings explicit, ClusterSpec spec,
      TestScope scope) {
    Optional<String> run = context.getConfigurationParameter(RUN_PROPERTY_NAME);
    if (run.isPresent()) {
      PerturbationPoint point = PerturbationPoint.parse(run.get());
      FakeCluster cluster = scope.cluster().fakeCluster().orElseThrow();
      long mark = cluster.requests().lastSequence();
      PerturbationTracker tracker = PerturbationTracker.attach(cluster, scope.harness(), point);
      if (ControllerTestConfig.of(context).resolve(ControllerTestConfig.PERTURB_STOP_EARLY, null, null).value()) {
        tracker.stopWaitsEarly();   // beforeEach runs on the test's thread: its waits are armed
      }
      return Optional.of(new PerturbationCampaign(tracker, cluster, null,
          context.getConfigurationParameter(CAMPAIGN_PROPERTY_NAME).orElse(""), point, mark));
    }
    Optional<PerturbationSettings> found = PerturbationSettings.of(context, explicit);
    if (found.isEmpty() || !found.get().enabled().value() || spec.mode().value() != Mode.FAKE) {
      return Optional.empty();
    }
    PerturbationSettings settings = found.get();
    if (spec.perClass()) {
      throw new ExtensionConfigurationException(settings.origin() + " cannot perturb "
          + context.getRequiredTestMethod().getName() + ": a perturbed test runs again once per perturbation, each "
          + "time on a fresh cluster, but " + context.getRequiredTestClass().getName() + " shares one cluster "
          + "across its tests (isolation PER_CLASS, from " + spec.isolation().source() + "). Fix: use per-method "
          + "isolation for this class (the default), move the test into a class of its own, or run without "
          + "perturbations (-D" + Perturbed.ENABLED_PROPERTY_NAME + "=off).");
    }
    FakeCluster cluster = scope.cluster().fakeCluster().orElseThrow();
    long mark = cluster.requests().lastSequence();
    return Optional.of(new PerturbationCampaign(PerturbationTracker.attach(cluster, scope.harness(), null),
        cluster, settings, null, null, mark));
  }

  /** Whether this is a perturbed run (inside a campaign's nested launcher). */
  boolean perturbedRun() {
    return point != null;
  }

  /**
   * After the test: a perturbed run records what it found; a reference run that passed runs the campaign.
   *
   * @throws AssertionError with the report, when a perturbed run failed
   */
  void afterEach(ExtensionContext context, TestScope scope) {
    if (perturbedRun()) {
      record(context, scope);
    } else {
      runCampaign(context, scope);
    }
  }

  private void record(ExtensionContext context, TestScope scope) {
    EndState endState = null;
    boolean converged = true;
    String activity = null;
    String captureFailure = null;
    // also after a failed test: its end state often says why its assertion failed
    try {
      converged = tracker.settle(SETTLE);
      if (!converged) {
        activity = PerturbationTimeline.activity(scope.harness().views());
      }
      endState = EndState.capture(cluster);
    } catch (RuntimeException e) {
      captureFailure = TimelineReport.describe(e);
    }
    List<PerturbationRuns.TimelineLine> timeline;
    List<String> injections;
    boolean fired;
    String notFiredReason;
    try {
      injections = tracker.injections();
      fired = tracker.fired();
      notFiredReason = fired ? null : tracker.notFiredReason();
      timeline = PerturbationTimeline.read(cluster, injections, tracker.controllerWrites(),
          tracker.refusedRequests(), journalMark);
    } catch (RuntimeException e) {
      injections = List.of();
      fired = true;
      notFiredReason = null;
      timeline = List.of();
      captureFailure = captureFailure != null ? captureFailure : TimelineReport.describe(e);
    }
    PerturbationRuns.put(campaign, new PerturbationRuns.Run(point.id(), fired, notFiredReason, injections, endState,
        converged, activity, captureFailure, timeline));
  }

  private void runCampaign(ExtensionContext context, TestScope scope) {
    String test = testName(context);
    if (context.getExecutionException().isPresent()) {
      context.publishReportEntry("ctk.perturbations", "ctk perturbation: " + test + ": not run, the reference run "
          + "failed (the test's own failure is reported as it is; fix it first)");
      return;
    }
    boolean converged = tracker.settle(SETTLE);
    long referenceMillis = (System.nanoTime() - startNanos) / 1_000_000;
    if (!converged) {
      String text = "ctk perturbation: " + test + ": not run, the reference run did not converge: the controllers "
          + "were not idle within " + SETTLE.toSeconds() + " s after the test (a hot loop, or stuck): "
          + PerturbationTimeline.activity(scope.harness().views()) + ". Fix the controller (or the test), or run "
          + "without perturbations (-D" + Perturbed.ENABLED_PROPERTY_NAME + "=off).";
      context.publishReportEntry("ctk.perturbations", text);
      throw new AssertionError(text);
    }
    EndState reference = EndState.capture(cluster);
    Set<String> watchedKinds = tracker.watchedKinds();
    Map<String, List<PerturbationPlan.WatchEvent>> events =
        PerturbationPlan.events(cluster.watchFaults().deliveries(), watchedKinds);
    PerturbationPlan plan = plan(settings, tracker.controllerWrites().size(), tracker.hasFactory(),
        tracker.restartableKinds(), events);
    // the reference run's controllers are done: stop them now rather than let them run beside every perturbed run
    scope.harness().close();
    String id = PerturbationRuns.open();
    List<RunResult> results = new ArrayList<>();
    long started = System.nanoTime();
    UniqueId selected = selection(context);
    int parallel = ControllerTestConfig.of(context).resolve(ControllerTestConfig.PERTURB_PARALLEL_RUNS, null, null)
        .value();
    try {
      results.addAll(runAll(plan.chosen(), parallel, next -> {
        long runStarted = System.nanoTime();
        Outcome outcome = launch(context, selected, id, next);
        if (!outcome.selected()) {
          throw notSelected(context, selected, next);
        }
        PerturbationRuns.Run run = PerturbationRuns.take(id, next.id());
        long millis = (System.nanoTime() - runStarted) / 1_000_000;
        List<Finding> findings = PerturbationOracle.judge(outcome, run, reference, settings.ignoredFields());
        String notFired = run == null ? null : run.notFiredReason();
        Status status = !findings.isEmpty() ? Status.FAIL : notFired != null ? Status.SKIP : Status.PASS;
        return new RunResult(next, millis, status, findings, run == null ? List.of() : run.timeline(), notFired);
      }));
    } finally {
      PerturbationRuns.close(id);
    }
    long totalMillis = (System.nanoTime() - started) / 1_000_000;
    String text = PerturbationReport.render(test, plan, results, totalMillis, referenceMillis);
    String published = text;
    Path file = JUnitAdapter.perturbationReportFile(context);
    try {
      PerturbationReport.write(file, text);
    } catch (Exception e) {
      published = text + "\n(writing " + file + " threw " + TimelineReport.describe(e) + ")";
    }
    if (plan.chosen().isEmpty()) {
      String why = nothingToPerturb(scope, watchedKinds, events);
      text += "\n" + why;
      published += "\n" + why;
    }
    context.publishReportEntry("ctk.perturbations", published);
    System.out.println("[ctk] " + text.lines().findFirst().orElse(text));
    if (results.stream().anyMatch(r -> r.status() == Status.FAIL)) {
      throw new AssertionError(text);
    }
    if (plan.chosen().isEmpty()) {
      if (ControllerTestConfig.of(context).resolve(NOTHING_TO_PERTURB, null, null).value()) {
        throw new AssertionError(text);
      }
      System.out.println("[ctk] WARNING: " + test + " was not perturbed (" + NOTHING_TO_PERTURB_PROPERTY_NAME
          + "=warn)");
    }
  }

  /**
   * Runs every point, {@code parallel} at a time, and gives their results in plan order. Each run has its own fake
   * cluster and nested launcher; the first error a run throws (a selection that failed) is thrown once all started
   * runs ended.
   */
  static List<RunResult> runAll(List<PerturbationPoint> points, int parallel,
      Function<PerturbationPoint, RunResult> run) {
    if (parallel <= 1 || points.size() <= 1) {
      return points.stream().map(run).toList();
    }
    ExecutorService pool = Executors.newFixedThreadPool(
        Math.min(parallel, points.size()), task -> {
          Thread thread = new Thread(task, "ctk-perturbed-run");
          thread.setDaemon(true);
          return thread;
        });
    try {
      List<Future<RunResult>> futures = points.stream()
          .map(point -> pool.submit(() -> run.apply(point))).toList();
      List<RunResult> results = new ArrayList<>();
      RuntimeException first = null;
      for (Future<RunResult> future : futures) {
        try {
          results.add(future.get());
        } catch (ExecutionException e) {
          if (first == null) {
            first = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while perturbed runs ran", e);
        }
      }
      if (first != null) {
        throw first;
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Why a campaign found nothing to perturb, from what the reference run had, and what to change: the lines a
   * report adds under its "nothing to perturb" line.
   */
  private String nothingToPerturb(TestScope scope, Set<String> watchedKinds,
      Map<String, List<PerturbationPlan.WatchEvent>> events) {
    List<String> observed = tracker.observedViews().stream().map(v -> v.name()).toList();
    StringBuilder out = new StringBuilder("  the reference run had: ")
        .append(tracker.controllerWrites().size()).append(" controller writes, ")
        .append(scope.harness().controllers().size()).append(" controllers started (")
        .append(scope.harness().restartables().size()).append(" from a factory), observed views ").append(observed)
        .append(", watched kinds ").append(watchedKinds).append(", watch events of those kinds ");
    Map<String, Integer> counts = new java.util.TreeMap<>();
    events.forEach((kind, list) -> counts.put(kind, list.size()));
    out.append(counts).append('\n');
    out.append("  Fix: start the controller from a factory (harness.start(() -> MyController.create(client))) so "
        + "that crash-restarts can be planned at its writes; make sure its informers watch the kinds the test "
        + "changes (stale views and bursts are planned on their watch events); or, when the test has nothing a "
        + "perturbation could change, remove @Perturbed, or set " + NOTHING_TO_PERTURB_PROPERTY_NAME + "=warn to be "
        + "warned instead of failed.");
    return out.toString();
  }

  /** The plan: the replayed point, or the points of the trace within the bound. */
  static PerturbationPlan plan(PerturbationSettings settings, int writes, boolean hasFactory,
      Set<String> watchedKinds, Map<String, List<PerturbationPlan.WatchEvent>> events) {
    long seed = settings.seed().value();
    if (settings.replay().value() != null) {
      return PerturbationPlan.replay(settings.replay().value(), seed);
    }
    return PerturbationPlan.bound(PerturbationPlan.derive(settings.kinds(), writes, hasFactory, watchedKinds,
        events),
        settings.maxRuns().value(), seed);
  }

  /** {@code NginxServiceControllerTest#creates_a_service} (nested classes as {@code Outer$Inner}). */
  static String testName(ExtensionContext context) {
    String name = context.getRequiredTestClass().getName();
    return name.substring(name.lastIndexOf('.') + 1) + "#" + context.getRequiredTestMethod().getName();
  }

  /**
   * The unique id a perturbed run selects: the test's own, except that in an {@link AcrossModes @AcrossModes} class
   * whose modes come from {@value ControllerTest#MODES_PROPERTY_NAME} (the nested run forces {@code fake} there, so
   * fake is its only, first invocation) the class's invocation becomes {@code #1}.
   */
  static UniqueId selection(ExtensionContext context) {
    UniqueId id = UniqueId.parse(context.getUniqueId());
    for (Class<?> type : ScopeResolution.classChain(context)) {
      Optional<AcrossModes> across = AnnotationSupport.findAnnotation(type, AcrossModes.class);
      if (across.isPresent() && across.get().value().length == 0) {
        return firstInvocation(id, type);
      }
    }
    return id;
  }

  /** The id with the class-template invocation of {@code template} (the segment after the class's) as {@code #1}. */
  static UniqueId firstInvocation(UniqueId id, Class<?> template) {
    List<UniqueId.Segment> segments = id.getSegments();
    UniqueId out = UniqueId.root(segments.get(0).getType(), segments.get(0).getValue());
    boolean afterTemplate = false;
    for (UniqueId.Segment segment : segments.subList(1, segments.size())) {
      boolean invocation = segment.getType().equals(CLASS_TEMPLATE_INVOCATION);
      out = out.append(segment.getType(), afterTemplate && invocation ? "#1" : segment.getValue());
      afterTemplate = segment.getType().endsWith("class-template")
          && (segment.getValue().equals(template.getName()) || segment.getValue().equals(template.getSimpleName()));
    }
    return out;
  }

  /** The campaign cannot run: the nested launcher found no test with the id it selected. */
  private static ExtensionConfigurationException notSelected(ExtensionContext context, UniqueId selected,
      PerturbationPoint point) {
    return new ExtensionConfigurationException("ctk perturbation: " + testName(context) + ": the campaign cannot "
        + "run: the nested JUnit launcher found no test with the unique id " + selected + " (perturbed run "
        + point.id() + "; the reference run is " + context.getUniqueId() + "), so no perturbed run can run this "
        + "test. A test is selected again by its unique id, in fake mode only: an invocation of a class or test "
        + "template that exists only outside fake mode, or only in the reference run (a provider that gives other "
        + "invocations the second time), is not found again. Fix: perturb a test whose id is the same in every "
        + "run (a plain @Test, or @AcrossModes whose fake invocation is found again), or run it without "
        + "perturbations (-D" + Perturbed.ENABLED_PROPERTY_NAME + "=off).");
  }

  /** Runs the test once more, with the point, through a nested launcher; returns what its listener saw. */
  static Outcome launch(ExtensionContext context, UniqueId selected, String campaign, PerturbationPoint point) {
    Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
        .enableTestExecutionListenerAutoRegistration(false)
        .enableLauncherSessionListenerAutoRegistration(false)
        .enableLauncherDiscoveryListenerAutoRegistration(false)
        .enablePostDiscoveryFilterAutoRegistration(false)
        .build());
    OutcomeListener listener = new OutcomeListener();
    launcher.execute(LauncherDiscoveryRequestBuilder.request()
        .selectors(selectUniqueId(selected))
        .filters(EngineFilter.includeEngines(selected.getEngineId().orElse("junit-jupiter")))
        .enableImplicitConfigurationParameters(true)
        .configurationParameters(parameters(context, campaign, point))
        .build(), listener);
    return listener.outcome();
  }

  /**
   * The explicit settings of a perturbed run, which win over the implicit ones it also reads (system properties and
   * {@code junit-platform.properties}, as the reference run did): every ctk setting of the reference run and a few
   * {@code junit.jupiter.*} ones (the reference run's launcher may have had them explicitly), parallel execution
   * off, then the run's own.
   */
  static Map<String, String> parameters(ExtensionContext context, String campaign, PerturbationPoint point) {
    Map<String, String> parameters = new LinkedHashMap<>();
    List<String> names = new ArrayList<>(JUNIT_SETTINGS);
    names.add(SettingNames.REPORT_DIR);
    for (Class<?> type : List.of(ControllerTest.class, Perturbed.class)) {
      for (Field field : type.getFields()) {
        if (Modifier.isStatic(field.getModifiers()) && field.getName().endsWith("_PROPERTY_NAME")
            && field.getType() == String.class) {
          try {
            names.add((String) field.get(null));
          } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
          }
        }
      }
    }
    for (String name : names) {
      context.getConfigurationParameter(name).ifPresent(value -> parameters.put(name, value));
    }
    parameters.remove(Perturbed.REPLAY_PROPERTY_NAME);
    parameters.put(PARALLEL_PROPERTY_NAME, "false");
    parameters.put(ControllerTest.MODE_PROPERTY_NAME, "fake");
    parameters.put(ControllerTest.MODES_PROPERTY_NAME, "fake");
    parameters.put(CAMPAIGN_PROPERTY_NAME, campaign);
    parameters.put(RUN_PROPERTY_NAME, point.id());
    return parameters;
  }

  @Override
  public void close() {
    tracker.close();
  }

  /** The result of the one test a nested launcher runs. */
  private static final class OutcomeListener implements TestExecutionListener {

    private volatile Outcome outcome;
    private volatile String problem;

    @Override
    public void executionSkipped(TestIdentifier identifier, String reason) {
      if (outcome == null) {
        problem = (identifier.isTest() ? "it was skipped: " : identifier.getDisplayName() + " was skipped: ")
            + reason;
      }
    }

    @Override
    public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
      if (identifier.isTest()) {
        outcome = switch (result.getStatus()) {
          case SUCCESSFUL -> Outcome.passed();
          case FAILED -> Outcome.failed(result.getThrowable().orElseGet(() -> new AssertionError("(no throwable)")));
          case ABORTED -> Outcome.notRun("it was aborted: " + result.getThrowable().map(TimelineReport::describe)
              .orElse("(no reason)"));
        };
      } else if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL && outcome == null) {
        problem = identifier.getDisplayName() + " " + result.getStatus().toString().toLowerCase(java.util.Locale.ROOT)
            + ": " + result.getThrowable().map(TimelineReport::describe).orElse("(no reason)");
      }
    }

    Outcome outcome() {
      if (outcome != null) {
        return outcome;
      }
      return problem != null ? Outcome.notRun(problem) : Outcome.notSelected();
    }
  }
}
