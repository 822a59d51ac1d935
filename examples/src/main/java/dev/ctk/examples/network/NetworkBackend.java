package dev.ctk.examples.network;

/**
 * The system that {@link NetworkController} keeps in line with the {@link Network} objects: in real life a
 * cloud or SDN API. Implementations may throw; the controller then retries with backoff.
 *
 * @since 0.1.0
 */
public interface NetworkBackend {

  /**
   * Creates or updates a network.
   *
   * @param key {@code namespace/name} of the Network object
   * @param spec what the network must look like
   * @throws NetworkBackendException when the backend is unavailable
   */
  void upsert(String key, NetworkSpec spec);

  /**
   * Deletes a network; deleting one that does not exist is not an error.
   *
   * @param key {@code namespace/name} of the Network object
   * @throws NetworkBackendException when the backend is unavailable
   */
  void delete(String key);

  /**
   * Reads a network.
   *
   * @param key {@code namespace/name} of the Network object
   * @return the network's spec, or {@code null} when the backend has none
   */
  NetworkSpec get(String key);
}
