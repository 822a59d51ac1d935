package dev.ctk.fake.internal.status;

/**
 * What an error names of a resource: its API group and plural ({@code configmaps}, {@code deployments.apps}). The
 * registry's resource types are resource names, so errors can name them without this package knowing the registry.
 */
public interface ResourceName {

  /**
   * The API group, {@code ""} for core.
   *
   * @return the group
   */
  String group();

  /**
   * The plural resource name, e.g. {@code configmaps}.
   *
   * @return the plural
   */
  String plural();

  /**
   * The resource as kube prints it in messages: {@code configmaps} or {@code deployments.apps}.
   *
   * @return the qualified resource
   */
  default String qualifiedResource() {
    return group().isEmpty() ? plural() : plural() + "." + group();
  }
}
