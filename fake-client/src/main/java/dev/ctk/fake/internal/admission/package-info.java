/**
 * Defaulting and validation of the fake API server: what kube-apiserver's built-in defaulters, registry
 * strategies and validation do to an object between decoding and storage, for the kinds controllers write most.
 * {@link dev.ctk.fake.internal.admission.Admission} is the one entry point; the store calls it on every create,
 * update and patch (defaulting before its metadata rules, completion and validation after them).
 *
 * <p>What it does:
 * <ul>
 *   <li>Defaulting (kube 1.32 values): Pod and every pod template (Deployment, ReplicaSet, StatefulSet, DaemonSet,
 *       Job, CronJob): restartPolicy, dnsPolicy, terminationGracePeriodSeconds, securityContext, schedulerName,
 *       container imagePullPolicy / terminationMessagePath / terminationMessagePolicy, port protocol, probe
 *       timings, fieldRef apiVersion, volume defaultMode and emptyDir; Pod only: enableServiceLinks, requests from
 *       limits, status Pending + qosClass. Deployment, StatefulSet, ReplicaSet, DaemonSet, Job (with kube's
 *       generated selector and labels), CronJob (defaults only, no validation), Service (type, sessionAffinity,
 *       ports, traffic policies, a cluster IP from 10.96.0.0/12, node ports 30000-32767,
 *       ipFamilies/ipFamilyPolicy; kept on update when the body leaves them out), Secret (type Opaque, stringData
 *       merged into data), PersistentVolumeClaim ({@code spec.volumeMode: Filesystem}, {@code status.phase: Pending}).
 *       Custom resources: their CRD version's structural schema ({@code dev.ctk.fake.internal.schema}): pruning and
 *       defaults in {@link dev.ctk.fake.internal.admission.Admission#defaults}, OpenAPI validation on create, update
 *       and status writes.</li>
 *   <li>Validation with kube's 422 texts: names per kind ({@code NameRule}) and
 *       generateName, label keys and values, annotation keys and total size, pod specs (containers required; name,
 *       image; duplicate names), workload selectors and template labels, restartPolicy per kind, immutable fields
 *       on update (Deployment/ReplicaSet/DaemonSet selector, StatefulSet spec, Job selector and template, a changed
 *       {@code metadata.uid}, Service cluster IPs as kube's Service registry checks them in its order
 *       ({@code ServiceIpFamilies}: a pre-validation that answers alone, then {@code may not change once set}),
 *       immutable ConfigMaps and Secrets, Secret type, every field of an Event updated through
 *       {@code events.k8s.io/v1} but its series), Pod spec updates ({@code ValidatePodUpdate}:
 *       only images, {@code activeDeadlineSeconds}, toleration additions, scheduling gate removals and
 *       terminationGracePeriodSeconds from negative to 1) and PersistentVolumeClaim spec updates (only a Bound claim's
 *       storage request, a first {@code volumeName} or {@code storageClassName}; {@code volumeMode} immutable).</li>
 *   <li>The test's admission hooks ({@link dev.ctk.fake.internal.admission.AdmissionHooks}): mutating hooks after
 *       defaulting, validating hooks after validation, on every API create, update, status or scale write and delete
 *       (not on the test's own seeding), denials answered as kube answers webhook denials.</li>
 * </ul>
 *
 * <p>Limits (what it does NOT do):
 * <ul>
 *   <li>No admission plugins: no ServiceAccount injection (serviceAccountName, the kube-api-access volume), no
 *       Priority (priority, preemptionPolicy), no DefaultTolerationSeconds tolerations, no LimitRanger or
 *       ResourceQuota, no real webhooks (no AdmissionReview over HTTP, no webhook configurations, no
 *       {@code reinvocationPolicy}, no {@code namespaceSelector}/{@code objectSelector}/rules: a hook filters requests
 *       itself); a deletecollection calls hooks per object, not once for the collection; hooks on the
 *       {@code scale} subresource see the parent object and no subresource name.</li>
 *   <li>Only the checks listed above: most of kube's field validation (resource quantities, ports ranges, probes,
 *       volumes, env names, affinity, ownerReferences, finalizer names, ...) is absent, as is validation of
 *       kinds not in the table (they get only metadata checks), PVC create checks (access modes, storage request),
 *       the relaxations for scheduling-gated Pods (nodeSelector and node affinity additions). Pod and PVC
 *       immutability errors end with the changed fields by JSON name, where kube appends a go-cmp diff of its Go
 *       structs (whose layout go-cmp deliberately varies); quantities there compare as written.</li>
 *   <li>Pod templates are not given {@code metadata.creationTimestamp: null} as kube serializes them.</li>
 *   <li>Allocation is deterministic (lowest free cluster IP from 10.96.0.2, lowest free node port) where kube picks
 *       at random; {@code 10.96.0.1} is never handed out (kube's {@code kubernetes} Service, which the fake does not
 *       create); single-stack IPv4 only (a dual-stack request answers kube's single-stack-cluster 422);
 *       healthCheckNodePort is not allocated; on create the cluster IP fields are not pre-validated as on update
 *       (a {@code clusterIPs} without {@code clusterIP} is accepted); ExternalName Services are checked for
 *       families and policy only on update.</li>
 *   <li>Events created through {@code events.k8s.io/v1} are not validated ({@code eventTime},
 *       {@code reportingController}, ... are required by kube).</li>
 *   <li>The Job template immutability error prints the template as {@code core.PodTemplateSpec{...}} where kube
 *       prints the whole Go struct; suspended Jobs do not get kube's mutable scheduling directives.</li>
 *   <li>With several bad labels or annotations, causes come in the object's order; kube's order (a Go map walk)
 *       is random.</li>
 *   <li>Texts were checked against kube 1.31/1.32 behaviour; older servers word some of them differently (e.g.
 *       annotation size: {@code must have at most 262144 bytes}).</li>
 * </ul>
 */
package dev.ctk.fake.internal.admission;
