/**
 * Which resources the fake API server serves: the built-in table ({@link
 * dev.ctk.fake.internal.registry.BuiltinResources}) and kinds registered by CustomResourceDefinitions.
 *
 * <p>Limits: one version per built-in group (the current GA one); only the {@code status} subresource is described;
 * CRD schemas are kept but not used (no pruning, validation, defaulting, printer columns or conversion; every served
 * version of a CRD reads and writes the same stored objects, only {@code apiVersion} differs).
 */
package dev.ctk.fake.internal.registry;
