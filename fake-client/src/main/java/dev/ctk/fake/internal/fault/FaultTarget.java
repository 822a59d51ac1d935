package dev.ctk.fake.internal.fault;

/**
 * What an error answer names: the resource of the request and the object it addresses.
 *
 * @param group API group, {@code ""} for core or non-resource paths
 * @param resource the plural resource (or the path for non-resource requests)
 * @param kind the kind, or {@code null} for non-resource paths
 * @param name the object name: from the path, else from the body's {@code metadata.name}, else {@code ""}
 */
public record FaultTarget(String group, String resource, String kind, String name) {
}
