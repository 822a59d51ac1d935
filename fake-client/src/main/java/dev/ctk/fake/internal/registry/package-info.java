/**
 * Which resources the fake API server serves: the built-in table ({@link
 * dev.ctk.fake.internal.registry.BuiltinResources}) and kinds registered by CustomResourceDefinitions.
 *
 * <p>Limits: one version per built-in group (the current GA one); only the {@code status} and {@code scale}
 * subresources are described ({@code scale} for Deployment, ReplicaSet, StatefulSet, ReplicationController and CRDs
 * declaring it; a CRD's scale paths must be plain dotted paths);
 * each served CRD version carries its structural schema ({@code dev.ctk.fake.internal.schema}: pruning, defaults,
 * validation), but printer columns are ignored and there is no conversion: every served version of a CRD reads and
 * writes the same stored objects, only {@code apiVersion} differs; unserved versions answer 404.
 */
package dev.ctk.fake.internal.registry;
