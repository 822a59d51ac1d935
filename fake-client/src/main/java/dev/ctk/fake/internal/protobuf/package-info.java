/**
 * Request bodies in kube's protobuf encoding ({@code application/vnd.kubernetes.protobuf}), which kubectl's
 * {@code create namespace|configmap|secret|deployment|service|job|...} and client-go send for built-in kinds, read
 * into the JSON the rest of the fake works on.
 *
 * <p>{@link dev.ctk.fake.internal.protobuf.ProtobufBody} opens kube's envelope ({@code k8s\0} and a
 * {@code runtime.Unknown}), finds the kind's generated class in {@code io.kubernetes:client-java-proto} by the
 * envelope's apiVersion ({@code ProtoKinds}: {@code apps/v1} is {@code V1Apps}), parses the raw bytes with it and
 * writes kube's JSON for it ({@code KubeJson}, {@code KubeValues}, {@code FieldRules}). Nothing here parses the wire
 * format by hand; the JSON is written from protobuf-java's descriptors rather than by {@code JsonFormat}, whose
 * generic mapping differs from kube's almost everywhere that matters (quoted 64-bit numbers, presence instead of
 * {@code omitempty}, times, quantities, int-or-strings, raw JSON, inlined structs).
 *
 * <p>Custom resources are refused with kube-apiserver's own 415 (it decodes them from JSON and YAML only).
 * Answers stay JSON: kubectl and client-go ask for protobuf with JSON as the alternative they also accept.
 *
 * <h2>Limits</h2>
 * <ul>
 *   <li>Only the group versions client-java-proto has messages for: core/v1, apps/v1, batch/v1, networking.k8s.io/v1,
 *       rbac.authorization.k8s.io/v1, policy/v1, scheduling.k8s.io/v1, storage.k8s.io/v1, autoscaling/v1,
 *       admissionregistration.k8s.io/v1, certificates.k8s.io/v1, authentication.k8s.io/v1,
 *       authorization.k8s.io/v1 and some older betas. A protobuf body of
 *       coordination.k8s.io/v1 Lease, discovery.k8s.io/v1 EndpointSlice, events.k8s.io/v1 Event, autoscaling/v2
 *       HorizontalPodAutoscaler ({@code kubectl autoscale}) or apiextensions.k8s.io/v1 CustomResourceDefinition is
 *       answered 415, naming the kind and saying to send JSON (kube-apiserver would accept it): a client-go program
 *       set to protobuf, as kube's own components are, must send those kinds as JSON (its leader election writes
 *       Leases).</li>
 *   <li>Fields newer than client-java-proto's schema: a body that sets one to anything but zero is answered 415
 *       (naming the field number and where it is) rather than stored without it.</li>
 *   <li>The protobuf schema does not tell a Go pointer from a plain field, nor a field tagged {@code omitempty} from
 *       one that is not. A zero number, {@code false} or {@code ""} in a protobuf body therefore reads as "not set"
 *       (kube's Go types marshal every plain field, zero or not, and kube's JSON omits the {@code omitempty} ones),
 *       except in the fields {@code FieldRules} lists: pointers a client sets to zero on purpose ({@code replicas},
 *       {@code backoffLimit}, {@code terminationGracePeriodSeconds}, {@code runAsUser}, {@code maxUnavailable},
 *       ...) and numbers kube writes even when zero ({@code PriorityClass.value}, ports, workload status
 *       counters). Any other pointer a client sets to zero, or {@code ""}, loses that value (kube would keep
 *       it), and any other field without {@code omitempty} is left out when zero (kube would write it). Checked:
 *       what kubectl 1.32's {@code create} commands send decodes to the very JSON kubectl prints for them.</li>
 *   <li>{@code metav1.Duration} is written as its protobuf struct, not Go's duration text (no kind the fake serves
 *       has one); apiextensions.k8s.io/v1beta1's {@code JSONSchemaPropsOr*} unions likewise (the fake serves only
 *       apiextensions.k8s.io/v1, whose messages client-java-proto lacks).</li>
 *   <li>The envelope's {@code contentEncoding} must be empty and its {@code contentType} is not checked; protobuf
 *       is read for object bodies (create, update, a Scale, DeleteOptions), never for patches (kube takes none).
 *       No protobuf responses, no protobuf watch streams, no CBOR.</li>
 * </ul>
 */
package dev.ctk.fake.internal.protobuf;
