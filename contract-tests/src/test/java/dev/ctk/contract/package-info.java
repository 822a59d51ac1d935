/**
 * The contract suite: ctk's fake API server checked against the real thing. Each {@link dev.ctk.contract.Scenario}
 * is one test body written against a {@link dev.ctk.contract.ContractTarget} (an admin fabric8 client, plain HTTP
 * through {@link dev.ctk.contract.RawApi}, a fresh namespace). {@code ContractSuiteTest} runs every scenario on a
 * fresh fake twice, once per client transport ({@code fake (http)}, {@code fake (in-process)}): each run must meet
 * kube's expected answers, and the two {@link dev.ctk.contract.Observation}s must be equal with no exception
 * ({@link dev.ctk.contract.TransportParity}). It then runs on each real kube-apiserver available (envtest's local
 * binaries; containers with {@code CTK_CONTRACT_TARGETS=fake,envtest,container}), whose observation must equal the
 * HTTP fake's but for the scenario's declared known differences. The run ends with {@code ctk contract: N of M
 * scenarios observed equal on the fake's http and in-process transports (D differ)} and {@code ctk contract: N of M
 * scenarios match between the fake and kube-apiserver vX.Y.Z (K known differences, F mismatches)} on stdout and
 * {@code target/contract-report.md}.
 *
 * <pre>{@code
 * Scenario.named("writes", "create of an existing name answers 409 AlreadyExists").body((t, o) -> {
 *   t.create(t.core("configmaps"), configMap("web"));
 *   Response again = t.api().post(t.core("configmaps"), configMap("web"));
 *   o.check("second create", again.outcome(), "409 AlreadyExists");
 * });
 * }</pre>
 *
 * <h2>What it does not do</h2>
 * <ul>
 *   <li>Each real target is two servers of one version, started when first needed: a bare kube-apiserver (the fake
 *       runs with garbage collection off to compare with it; two scenarios run the fake's asynchronous collector and
 *       check that it still answers as a bare API server does right after a namespace delete), and one with
 *       kube-controller-manager's garbage collector and namespace controller for the scenarios of garbage collection
 *       and namespace cleanup proper ({@code Scenario.Builder.needsClusterControllers()}). A target that cannot run
 *       kube-controller-manager (no binary beside kube-apiserver; the default container images) skips those, with
 *       the reason, or fails them under {@code CTK_REQUIRE_ENVTEST=true}. No k3s target.
 *   <li>It proves equality for what each scenario records, not for whole objects: timestamps, uids, resourceVersions
 *       (compared as relations), generated name suffixes and allocated IPs are normalized, and fields a scenario does
 *       not read are not compared (e.g. {@code managedFields} outside the server-side apply scenarios).
 *   <li>The real servers are what envtest finds for each target ({@code envtest}, {@code envtest@1.37}, ...; CI:
 *       v1.32.13, the minor the fake emulates, locally and in containers, and v1.37.2); a scenario whose
 *       behaviour differs between versions says which version it expects.
 *   <li>Watches are read over HTTP streaming with {@code timeoutSeconds=1}; websocket watches, bookmarks and
 *       informers are not compared here (fake-client's own tests cover them).
 *   <li>Scenarios run one after another on one shared server; no concurrency, performance or fault behaviour.
 *   <li>The in-process transport is compared with HTTP only through what scenarios record; the URL a client shows
 *       (a loopback port or {@code ctk-fake-<n>.invalid}) and TLS are not part of any observation.
 * </ul>
 */
package dev.ctk.contract;
