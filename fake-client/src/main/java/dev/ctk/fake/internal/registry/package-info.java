/**
 * Which resources the fake API server serves: the built-in kinds ({@link
 * dev.ctk.fake.internal.registry.BuiltinKinds}, one row a kind holding everything the engines read about it: names,
 * scope, subresources, generation rule, Go type, empty object, field labels, admission rules) and kinds registered
 * by CustomResourceDefinitions.
 *
 * <p>Limits: one version per built-in group (the current GA one); {@code status} and {@code scale} are served as
 * writable subresources ({@code scale} for Deployment, ReplicaSet, StatefulSet, ReplicationController and CRDs
 * declaring it; a CRD's scale paths must be plain dotted paths), the other subresources a row names (Pod
 * {@code log}, {@code exec}, ...) as discovery lists them, with the answers {@code dev.ctk.fake.internal.http}
 * gives; the CustomResourceDefinition row's empty object is not described (managedFields of a created CRD may
 * show {@code "."} entries kube does not);
 * each served CRD version carries its structural schema ({@code dev.ctk.fake.internal.schema}: pruning, defaults,
 * validation), but printer columns are ignored and there is no conversion: every served version of a CRD reads and
 * writes the same stored objects, only {@code apiVersion} differs; unserved versions answer 404.
 */
package dev.ctk.fake.internal.registry;
