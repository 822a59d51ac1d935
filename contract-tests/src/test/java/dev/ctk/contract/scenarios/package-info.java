/**
 * The contract suite's scenarios, one class per area (writes, validation, defaulting, subresources, patch,
 * server-side apply, deletion, reads, watch, CRDs, CEL, discovery, events);
 * {@link dev.ctk.contract.scenarios.Scenarios#all()} lists them in the order they run.
 *
 * <p>Each scenario records what a client observes and states kube's answer with
 * {@link dev.ctk.contract.Observation#check(String, Object, Object)}; where the fake deliberately differs, or the
 * kube-apiserver at hand predates the kube 1.3x behaviour the fake emulates, it declares a known difference with
 * the reason; where kube changed after the 1.32 the fake emulates, the scenario expects 1.32's answer and declares
 * the change with {@code knownDifferenceFrom(version, ...)} (e.g. 1.34 prints field error values as JSON).
 *
 * <p>Not covered here: admission webhooks and ctk's admission hooks, websocket watches and bookmarks, kubectl,
 * authentication and authorization, what {@code /log}, {@code /exec}, binding and eviction do (discovery lists
 * them), garbage collection and namespace cleanup (the
 * real side is a bare apiserver), and every kind outside ConfigMap, Secret, Pod, Service, Deployment, ReplicaSet,
 * StatefulSet, Job, Namespace, Event and one CRD.
 */
package dev.ctk.contract.scenarios;
