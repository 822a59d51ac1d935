/**
 * ctk's embedded fake Kubernetes API server: {@link dev.ctk.fake.FakeCluster} (start, seed, get a fabric8 client,
 * a kubeconfig) and {@link dev.ctk.fake.EventInjector} (events through the store, and synthetic watch events).
 * No JUnit here: the JUnit extension is a thin adapter over these types.
 *
 * <pre>{@code
 * try (FakeCluster cluster = FakeCluster.builder().withCrds(networkCrd).build()) {
 *   SharedIndexInformer<ConfigMap> informer = cluster.client().configMaps().inform();   // a real informer
 *   cluster.events().add(configMap);                                                   // seen exactly once
 * }
 * }</pre>
 *
 * <h2>What the fake does</h2>
 * <ul>
 *   <li>The Kubernetes REST API, for fabric8 clients of this JVM in process by default
 *       ({@link dev.ctk.fake.ClientTransport}) and for any client over plain HTTP, for the built-in kinds
 *       controllers use most (core/v1, apps/v1,
 *       batch/v1, networking.k8s.io/v1, rbac.authorization.k8s.io/v1, apiextensions.k8s.io/v1, coordination.k8s.io/v1,
 *       policy/v1, discovery.k8s.io/v1, events.k8s.io/v1, autoscaling/v2, storage.k8s.io/v1) and for every kind a
 *       CustomResourceDefinition registers.
 *   <li>Verbs get, list, create, update, patch (JSON patch, JSON merge patch, strategic merge patch for built-in
 *       kinds), delete, deletecollection, watch; the {@code /status} subresource; {@code dryRun=All}.
 *   <li>kube's write rules: one global resourceVersion; 409 Conflict on a stale resourceVersion and 409
 *       AlreadyExists; unconditional updates for built-ins, 422 for custom resources without resourceVersion;
 *       no-op updates keep the resourceVersion and send no event; {@code generateName}; {@code generation} as each
 *       kind's registry strategy maintains it; finalizers ({@code deletionTimestamp}, removal with the last
 *       finalizer); delete preconditions; create in a missing namespace is 404.
 *   <li>Reads: label selectors (equality and set-based), field selectors {@code metadata.name},
 *       {@code metadata.namespace} and the kind-specific ones kube supports (Pod {@code status.phase},
 *       {@code spec.nodeName}, Secret {@code type}, ...), {@code limit}/{@code continue} over a consistent snapshot,
 *       and a list at an exact older resourceVersion ({@code resourceVersionMatch=Exact}, or {@code limit} with a
 *       resourceVersion) read from the watch history (410 beyond it); {@code ListOptions} and {@code dryRun} values
 *       validated with kube's 422.
 *   <li>{@code core/v1} and {@code events.k8s.io/v1} Events are two views of one stored object, as in kube.
 *   <li>The {@code /scale} subresource (autoscaling/v1 Scale) for Deployment, ReplicaSet, StatefulSet,
 *       ReplicationController and CRDs that declare it.
 *   <li>What a cluster's controller-manager adds to a bare API server ({@link dev.ctk.fake.values.GarbageCollection}):
 *       ownerReference garbage collection with {@code propagationPolicy} Background, Foreground
 *       ({@code blockOwnerDeletion}) and Orphan, collection of objects whose owners do not exist (looked up by kind,
 *       namespace, name and uid), and namespace deletion through Terminating (creates in a terminating namespace
 *       answer 403; the namespace controller starts kube's 5-second grace period after the delete, then empties the
 *       namespace, writes kube's status conditions and removes it). Asynchronous by default, as in a cluster, on
 *       the cluster's own thread: {@link dev.ctk.fake.FakeCluster#awaitGarbageCollection} waits until it settled;
 *       {@code SYNCHRONOUS} does it all before the request is answered, {@code OFF} mimics a bare
 *       kube-apiserver.
 *   <li>Watches over websockets and HTTP streaming that resume from a resourceVersion (410 Expired beyond the
 *       retained history; from a resourceVersion the cluster has not reached, silent until it passes it, as kube's
 *       watch cache serves them),
 *       apply selector transitions (an object leaving a selection is DELETED for that watch), honour
 *       {@code timeoutSeconds} and {@code sendInitialEvents}, send BOOKMARKs to watches that ask
 *       ({@code allowWatchBookmarks}: about every minute, configurable with
 *       {@link dev.ctk.fake.FakeCluster.Builder#withBookmarkInterval}, and shortly before a timeout), and close
 *       watches whose client stops reading.
 *   <li>{@code Status} error bodies shaped as kube-apiserver shapes them; discovery; {@code /version}; health.
 *   <li>Defaulting as kube 1.32 does it for Pods and every pod template, Deployment, ReplicaSet, StatefulSet,
 *       DaemonSet, Job (with kube's generated selector and labels), CronJob, Service (type ClusterIP, a cluster IP
 *       allocated from 10.96.0.0/12, node ports, port protocol TCP, targetPort = port, traffic policies, IP
 *       families; allocated values kept when an update leaves them out), Secret (type Opaque, stringData
 *       merged into data) and PersistentVolumeClaim (volumeMode, phase Pending). Objects read back carry these
 *       fields, on create, update, patch and in seeded objects.
 *   <li>CustomResourceDefinitions with structural schemas: unknown fields pruned (honouring
 *       {@code x-kubernetes-preserve-unknown-fields} and {@code x-kubernetes-embedded-resource}), schema defaults
 *       applied on writes and reads, OpenAPI validation with kube's 422 causes (type, required, enum, bounds,
 *       lengths, pattern, item and property counts, nullable, int-or-string, list-type uniqueness, some formats),
 *       ratcheting on update, status writes checked against the status schema, non-structural schemas refused;
 *       every served version serves the objects with its apiVersion, unserved versions answer 404, printer columns
 *       are ignored.
 *   <li>Validation with kube's 422 Invalid bodies ({@code details.causes}, several errors joined as {@code [a, b]}):
 *       object names per kind and {@code generateName}, label keys and values, annotation keys and total size, a
 *       Pod (or pod template) without containers, containers without name or image or with duplicate names,
 *       workload selectors that do not select their template, restartPolicy per kind, and immutable fields
 *       (Deployment/ReplicaSet/DaemonSet {@code spec.selector}, StatefulSet spec, Job selector and template,
 *       Service primary cluster IP, immutable ConfigMaps and Secrets, Secret {@code type}, Pod spec except images,
 *       deadline, toleration additions and the other fields kube lets change, PersistentVolumeClaim spec except a
 *       Bound claim's storage request). A body whose name or
 *       namespace disagrees with the URL is 400. Seeded objects are validated too (an invalid one fails seeding).
 *   <li>{@code dryRun=All} on create, update, patch and delete: defaulting, validation and conflicts run, the
 *       answer is what would be stored, and nothing is stored, no resourceVersion is used and no event is sent.
 *   <li>Admission hooks a test registers ({@link dev.ctk.fake.values.AdmissionHook}, with
 *       {@link dev.ctk.fake.FakeCluster.Builder#withMutatingAdmission} and
 *       {@link dev.ctk.fake.FakeCluster.Builder#withValidatingAdmission}): they see every API write as admission
 *       webhooks do (mutating after defaulting, validating after validation) and may change or deny it; denials
 *       answer {@code admission webhook "<name>" denied the request: ...}.
 *   <li>A request journal ({@link dev.ctk.fake.FakeCluster#requests()}, {@link dev.ctk.fake.RequestJournal}): every
 *       API request answered and every injected event, with verb, kind, object, subresource, patch type, field
 *       manager, selectors, the body's resourceVersion, client, answer code, whether it changed the store, and the
 *       fault that answered it; the last 10,000.
 *   <li>API faults at the server ({@link dev.ctk.fake.FakeCluster#faults()}, {@link dev.ctk.fake.ApiFaults}): rules
 *       matched by {@link dev.ctk.fake.values.RequestPattern} (once, counted, from the n-th call, seeded probability, until
 *       removed) that answer 409, 422, 429 with Retry-After, 500, 503 or any error Status, delay the request,
 *       drop the connection, or serve a GET or LIST from an older resourceVersion ({@code ApiFault.staleRead}), for
 *       client calls and informers' lists and watches alike; every firing is recorded.
 * </ul>
 *
 * <h2>What it does not do (yet)</h2>
 * <ul>
 *   <li>Server-side apply is implemented with managedFields and conflicts, but the contract suite lists the
 *       known differences from kube-apiserver (see the README's known limitations).
 *   <li>Defaulting and validation only as listed above: most field validation (quantities, port ranges, probes,
 *       volumes, env names, affinity, ...) is absent, kinds outside that list get only name, label and annotation
 *       checks, Job template errors print the template as {@code core.PodTemplateSpec{...}} rather than kube's
 *       whole Go struct, and Pod/PVC immutability errors end with a diff of JSON fields rather than kube's go-cmp
 *       diff (see {@code dev.ctk.fake.internal.admission} for the full list). CRDs: no CEL
 *       ({@code x-kubernetes-validations}), no {@code allOf}/{@code anyOf}/{@code oneOf}/{@code not}, no
 *       conversion (every version shares the stored objects), a version without a schema is accepted and keeps
 *       every field, no {@code selectableFields} (see {@code dev.ctk.fake.internal.schema}).
 *   <li>No admission plugins (no service-account token volume, priority or default tolerations on Pods), no real
 *       admission webhooks (only the Java hooks above, which run under the fake's write lock and must not call the
 *       cluster's API) or ValidatingAdmissionPolicies, no authentication or authorization: every request is
 *       allowed.
 *   <li>No other controllers: garbage collection cascades by owner uid, records no events, and does not retry a
 *       write the server refused; objects seeded with references to owners that do not exist are collected like
 *       any others (see {@code dev.ctk.fake.internal.gc}); no graceful pod deletion (pods go at once unless
 *       finalizers hold them), no ReplicaSets or Pods from Deployments, no scheduling.
 *   <li>The Pod, Node, Service, Namespace and ServiceAccount subresources kube lists in discovery are served as a
 *       bare kube-apiserver serves them, without a kubelet: {@code /log} and {@code /exec} of an unscheduled Pod
 *       answer kube's 204 and 400, binding and eviction (with PodDisruptionBudgets) write, but nothing ever streams
 *       or proxies (503); see {@code dev.ctk.fake.internal.http}. No Table output (kubectl prints NAME and AGE columns); no aggregated discovery; OpenAPI
 *       v2 is an empty document and v3 is absent; no protobuf or CBOR request bodies (415).
 *   <li>BOOKMARK objects carry only kind, apiVersion and resourceVersion; an exact list reaches back only as far
 *       as the watch history ({@code withWatchHistoryLimit}), where kube reads etcd until it is compacted.
 *   <li>No TLS.
 *   <li>Every client {@link dev.ctk.fake.FakeCluster} hands out, of every cluster in the JVM, shares one fabric8
 *       {@code KubernetesSerialization}: Jackson mapper settings changed and resource classes registered through
 *       one client apply to all of them (the fake's own conversions use another one and are not affected).
 *   <li>API faults apply only to API requests (in process or over HTTP): {@link dev.ctk.fake.EventInjector}
 *       calls, seeding
 *       and {@link dev.ctk.fake.FakeCluster#create} are never faulted. A fault decides before the request is
 *       served, so it cannot answer "after the write was committed" (no "committed but the answer was lost"); a
 *       fault on a watch refuses the watch, it does not break a watch already open (watch faults do that). A
 *       delayed request still holds its connection, and a delay or a pending timer is lost when the cluster
 *       closes. Rules cannot match on the request body except through {@code RequestPattern.where(..)} on the
 *       record's {@code bodyResourceVersion}. A 429 is a {@code Status} body, where kube's load shedding sends
 *       text. Seeded probabilities repeat only when the matching requests arrive in the same order. A stale read
 *       reaches back only as far as the watch history ({@code withWatchHistoryLimit}, 410 beyond it), and a
 *       {@code resourceVersion} parameter on a GET does not read the past by itself (on a LIST, see above).
 *   <li>The journal records requests when they are answered (a delayed one appears late; a request whose
 *       connection fails before its body arrives, or with an HTTP method the server does not serve, is not
 *       recorded), keeps no request or response bodies, and times are wall-clock receive times.
 * </ul>
 *
 * @since 0.1.0
 */
package dev.ctk.fake;
