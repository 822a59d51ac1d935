package dev.ctk.fake.values;

/**
 * A function the fake API server calls on writes, as a real kube-apiserver calls an admission webhook: register it
 * with {@link dev.ctk.fake.FakeCluster.Builder#withMutatingAdmission} (it may change the object) or
 * {@link dev.ctk.fake.FakeCluster.Builder#withValidatingAdmission} (it may only accept or deny), so a test can emulate a webhook or
 * policy the controller under test depends on.
 *
 * <pre>{@code
 * FakeCluster cluster = FakeCluster.builder()
 *     .withValidatingAdmission("no-latest.example.com", request -> {
 *       Pod pod = request.object(Pod.class);
 *       boolean latest = pod != null && pod.getSpec().getContainers().stream()
 *           .anyMatch(c -> c.getImage().endsWith(":latest"));
 *       return latest ? AdmissionDecision.deny("images must not use the latest tag") : AdmissionDecision.allow();
 *     })
 *     .build();
 * // creating such a Pod now fails with 403: admission webhook "no-latest.example.com" denied the request: ...
 * }</pre>
 *
 * <p>When it runs, as in kube-apiserver: mutating hooks in registration order after the object is decoded and
 * defaulted (before the server names it from {@code generateName} and before validation), then the server's own
 * validation, then validating hooks in registration order; the first denial ends the request. Every API write
 * (create, update, patch, the {@code status} and {@code scale} subresources, delete, each object of a
 * deletecollection, deletions by the garbage collector) goes through the hooks, {@code dryRun=All} requests too
 * (see {@link AdmissionRequest#dryRun()}); objects seeded by the test ({@link dev.ctk.fake.FakeCluster.Builder#withObjects},
 * {@link dev.ctk.fake.FakeCluster#create}, {@link dev.ctk.fake.EventInjector}) do not.
 *
 * <p>A hook runs while the fake holds its write lock: it must not call the cluster's API (through a client of the
 * same cluster), or that call waits for the lock until it times out. A hook that throws fails the request with
 * kube's 500 {@code Internal error occurred: failed calling webhook "<name>": ...}.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface AdmissionHook {

  /**
   * Reviews one request.
   *
   * @param request what is being written; its objects are private copies
   * @return the decision: {@link AdmissionDecision#allow()}, {@link AdmissionDecision#patch} (mutating hooks
   *     only) or {@link AdmissionDecision#deny(String)}
   */
  AdmissionDecision review(AdmissionRequest request);
}
