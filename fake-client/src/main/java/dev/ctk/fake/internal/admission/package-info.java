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
 *       merged into data).</li>
 *   <li>Validation with kube's 422 texts: names per kind ({@code NameRule}) and
 *       generateName, label keys and values, annotation keys and total size, pod specs (containers required; name,
 *       image; duplicate names), workload selectors and template labels, restartPolicy per kind, immutable fields
 *       on update (Deployment/ReplicaSet/DaemonSet selector, StatefulSet spec, Job selector and template, Service
 *       primary cluster IP, immutable ConfigMaps and Secrets, Secret type).</li>
 * </ul>
 *
 * <p>Limits (what it does NOT do):
 * <ul>
 *   <li>No admission plugins: no ServiceAccount injection (serviceAccountName, the kube-api-access volume), no
 *       Priority (priority, preemptionPolicy), no DefaultTolerationSeconds tolerations, no LimitRanger or
 *       ResourceQuota, no webhooks or user-registered hooks (issue 3's admission hooks come later).</li>
 *   <li>Only the checks listed above: most of kube's field validation (resource quantities, ports ranges, probes,
 *       volumes, env names, affinity, ownerReferences, finalizer names, ...) is absent, as is validation of
 *       kinds not in the table (they get only metadata checks), PVC spec immutability and Pod spec
 *       immutability on update. CRD OpenAPI validation, pruning and schema defaults are not done here.</li>
 *   <li>Pod templates are not given {@code metadata.creationTimestamp: null} as kube serializes them.</li>
 *   <li>Allocation is deterministic (lowest free cluster IP from 10.96.0.2, lowest free node port) where kube picks
 *       at random; {@code 10.96.0.1} is never handed out (kube's {@code kubernetes} Service, which the fake does not
 *       create); single-stack IPv4 only; healthCheckNodePort is not allocated; Service type changes are not
 *       validated (a move to ExternalName that leaves clusterIP in the body keeps it, where kube answers 422).</li>
 *   <li>The Job template immutability error prints the template as {@code core.PodTemplateSpec{...}} where kube
 *       prints the whole Go struct; suspended Jobs do not get kube's mutable scheduling directives.</li>
 *   <li>With several bad labels or annotations, causes come in the object's order; kube's order (a Go map walk)
 *       is random.</li>
 *   <li>Texts were checked against kube 1.31/1.32 behaviour; older servers word some of them differently (e.g.
 *       annotation size: {@code must have at most 262144 bytes}).</li>
 * </ul>
 */
package dev.ctk.fake.internal.admission;
