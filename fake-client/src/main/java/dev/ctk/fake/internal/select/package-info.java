/**
 * Label and field selectors of the fake API server ({@code ?labelSelector=},
 * {@code ?fieldSelector=}), parsed, validated and matched as kube-apiserver does, with its error texts.
 *
 * <p>{@link dev.ctk.fake.internal.select.LabelSelector} accepts kube's whole label-selector grammar
 * ({@code =}, {@code ==}, {@code !=}, {@code in}, {@code notin}, exists, {@code !} does-not-exist,
 * {@code >}, {@code <}) and validates keys and values with kube's rules.
 * {@link dev.ctk.fake.internal.select.FieldSelector} accepts {@code =}, {@code ==}, {@code !=} with
 * kube's escaping, and per kind the field labels kube-apiserver 1.3x accepts.
 *
 * <p>What it does not do:
 * <ul>
 *   <li>Field labels ({@link dev.ctk.fake.internal.select.FieldLabels}, one column of each kind's row in
 *       {@code BuiltinKinds}) are known for core/v1 (Pod, Node, Namespace, Secret, Service,
 *       ReplicationController, Event) and batch/v1 Job; every other kind, custom resources
 *       included, gets kube's default ({@code metadata.name}, {@code metadata.namespace} only).
 *       events.k8s.io/v1 Event's own labels ({@code regarding.*}) and CRD
 *       {@code selectableFields} are not supported.
 *   <li>Values are read from the object's JSON; a field read from a list takes its first element
 *       (Pod {@code status.podIP}); Pod {@code status.podIPs} is accepted but, as in kube, never
 *       matches a non-empty value.
 *   <li>No set-based field selectors (kube has none either) and no label selector on fields.
 *   <li>Strings are handled as Java chars, not Go bytes: byte-length limits are computed on UTF-8,
 *       but a NUL character does not end a label selector as it does in Go.
 * </ul>
 */
package dev.ctk.fake.internal.select;
