package dev.ctk.junit;

import dev.ctk.harness.internal.SettingNames;
import dev.ctk.harness.values.Perturbation;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a {@link ControllerTest @ControllerTest} test as a perturbation campaign: the test runs once as it is (the
 * reference run, traced), then once per planned perturbation point (a crash-restart inside a reconcile, a stale
 * informer, a restart on a stale list, unobserved intermediate states), each on a fresh fake cluster. A run fails
 * when the test's own assertions fail, when the controller does not converge, when it leaks (an owned object whose
 * owner is gone, a finalizer never removed) or when the end state differs from the reference run's (objects, their
 * specs, data and statuses; {@link #ignoreFields()} lists what may differ). The test fails with a report of every
 * run and, for each failing run, the one-line id that replays it and the minimal timeline of the divergence.
 *
 * <pre>{@code
 * @ControllerTest
 * class NginxServiceControllerTest {
 *   @Test
 *   @Perturbed
 *   void creates_a_service(KubernetesClient client, ControllerHarness harness) {
 *     harness.start(() -> NginxServiceController.create(client));   // a factory: crash-restart points
 *     ...
 *   }
 * }
 * }</pre>
 *
 * <p>On a class, every test of the class (and its {@code @Nested} classes) is perturbed. Only fake mode is
 * perturbed: in other modes (an {@link AcrossModes @AcrossModes} envtest run) the test runs once, as without this
 * annotation. Settings, highest first: this annotation, then the configuration parameters below, then the
 * environment variables ({@code CTK_PERTURB_REPLAY}, {@code CTK_PERTURB_MAX_RUNS}, {@code CTK_PERTURB_SEED},
 * {@code CTK_PERTURB}, {@code CTK_PERTURB_NOTHING_TO_PERTURB}, {@code CTK_PERTURB_PARALLEL_RUNS}, {@code CTK_PERTURB_STOP_EARLY}), then the defaults.
 *
 * @since 0.1.0
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface Perturbed {

  /** Replays one point: its id as a report prints it, e.g. {@code crash-restart:after-write-2}. */
  String REPLAY_PROPERTY_NAME = SettingNames.PERTURB_REPLAY;

  /** The most perturbed runs per test when the annotation does not say; default 24. */
  String MAX_RUNS_PROPERTY_NAME = SettingNames.PERTURB_MAX_RUNS;

  /** The seed that picks the runs when the plan has more points than the maximum; default from the test's id. */
  String SEED_PROPERTY_NAME = SettingNames.PERTURB_SEED;

  /**
   * What a campaign that finds nothing to perturb does (no controller writes to crash at, no watch events of the
   * watched kinds): {@code fail} (the default: the test fails, saying why and what to change) or {@code warn} (the
   * test passes and the console and the report say it was not perturbed). Never quiet.
   */
  String NOTHING_TO_PERTURB_PROPERTY_NAME = SettingNames.PERTURB_NOTHING_TO_PERTURB;

  /**
   * How many perturbed runs of one campaign run side by side, each against its own fake cluster: {@code 1} (the
   * default) runs them one after the other; more makes a campaign faster on a machine with spare cores, for tests
   * whose runs share nothing but the JVM (no fixed port or file, no static state they change).
   */
  String PARALLEL_RUNS_PROPERTY_NAME = SettingNames.PERTURB_PARALLEL_RUNS;

  /**
   * Whether a perturbed run stops the test's waits (its Awaitility {@code await()}s, ctk's {@code within(..)}
   * assertions) as soon as nothing can change any more: {@code true} (the default) or {@code false} (each wait runs
   * to its timeout). A wait is stopped once, for 500 ms and over two polls, the cluster took no write, every
   * controller was idle with no key waiting on a delay, every informer was watching, and nothing was held back or
   * restarting: its condition could then only time out. Turn it off for a test that waits for a change no controller
   * view reports (an informer resync, a scheduler of the controller's own).
   */
  String STOP_EARLY_PROPERTY_NAME = SettingNames.PERTURB_STOP_EARLY;

  /** {@code off}: run {@code @Perturbed} tests once, as plain tests (a quick local run); default {@code on}. */
  String ENABLED_PROPERTY_NAME = SettingNames.PERTURB;

  /**
   * The kinds of perturbation to plan.
   *
   * @return the kinds; default all
   */
  Perturbation[] kinds() default {Perturbation.CRASH_RESTART, Perturbation.STALE_RESTART, Perturbation.STALE_VIEW,
      Perturbation.UNOBSERVED_STATES};

  /**
   * The most perturbed runs; when the plan has more points, a seeded sample is run (the report says which).
   * {@code -1}: {@value #MAX_RUNS_PROPERTY_NAME}, else 24.
   *
   * @return the bound
   */
  int maxRuns() default -1;

  /**
   * The seed of the sample; {@code -1}: {@value #SEED_PROPERTY_NAME}, else derived from the test's unique id.
   *
   * @return the seed
   */
  long seed() default -1;

  /**
   * Fields that may differ from the reference run's end state, as paths into the objects:
   * {@code status.lastUpdated}, {@code metadata.annotations["example.com/last-seen"]}, {@code spec.items[*].stamp},
   * optionally for one kind: {@code ConfigMap:data.generatedAt}. They add to what every comparison ignores, which is
   * exactly:
   * <ul>
   *   <li>{@code metadata.uid}, {@code metadata.resourceVersion}, {@code metadata.creationTimestamp}, {@code
   *       metadata.generation}, {@code metadata.managedFields}, {@code metadata.selfLink} and {@code
   *       metadata.ownerReferences[*].uid};
   *   <li>the value of {@code metadata.deletionTimestamp} (only whether it is set is compared);
   *   <li>the random suffix of a name made from a generateName, wherever such a name appears (it reads as the
   *       generateName followed by {@code <generated>});
   *   <li>{@code status.conditions[*].lastTransitionTime}, {@code status.conditions[*].lastUpdateTime}, {@code
   *       status.conditions[*].lastHeartbeatTime} and {@code status.conditions[*].lastProbeTime}, of every kind;
   *   <li>a Service's {@code spec.clusterIP}, {@code spec.clusterIPs} and {@code spec.ports[*].nodePort} (allocated
   *       by the server).
   * </ul>
   * Any other field is compared, other timestamps included.
   *
   * @return the paths
   */
  String[] ignoreFields() default {};
}
