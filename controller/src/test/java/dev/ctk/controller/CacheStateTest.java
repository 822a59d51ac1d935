package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

class CacheStateTest {

  @Test
  void should_describe_each_state_in_one_phrase() {
    // WHEN / THEN
    assertThat(new CacheState("event source WebApp", true, true, true).describe())
        .isEqualTo("synced");
    assertThat(new CacheState("event source WebApp", false, true, false).describe())
        .isEqualTo("not synced (running)");
    assertThat(new CacheState("event source WebApp", false, false, false).describe())
        .isEqualTo("not synced (not running)");
  }

  @Test
  void should_read_a_fabric8_informer_naming_it_after_its_type() {
    // GIVEN
    StubInformer<ConfigMap> stub = new StubInformer<>(ConfigMap.class);
    stub.running = true;
    // WHEN
    CacheState before = CacheState.of(stub.informer());
    stub.synced = true;
    CacheState after = CacheState.of(stub.informer());
    // THEN
    assertThat(before).isEqualTo(new CacheState("ConfigMap informer", false, true, false));
    assertThat(after).isEqualTo(new CacheState("ConfigMap informer", true, true, true));
    assertThat(CacheState.of("config maps of shop", stub.informer()))
        .isEqualTo(new CacheState("config maps of shop", true, true, true));
  }

  @Test
  void should_count_an_informer_that_throws_while_replacing_its_watch_as_not_watching() {
    // GIVEN an informer whose isWatching() throws, as fabric8's may while it replaces its watch
    SharedIndexInformer<?> informer = (SharedIndexInformer<?>) Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {SharedIndexInformer.class},
        (self, method, args) -> switch (method.getName()) {
          case "isWatching" -> throw new IllegalStateException("watch being replaced");
          case "hasSynced", "isRunning" -> true;
          case "getApiTypeClass" -> null;
          default -> throw new UnsupportedOperationException(method.getName());
        });
    // WHEN
    CacheState state = CacheState.of(informer);
    // THEN
    assertThat(state).isEqualTo(new CacheState("unknown informer", true, true, false));
  }

  @Test
  void should_refuse_a_null_name_or_informer() {
    // WHEN
    NullPointerException noName = catchThrowableOfType(NullPointerException.class,
        () -> new CacheState(null, true, true, true));
    NullPointerException noInformer = catchThrowableOfType(NullPointerException.class,
        () -> CacheState.of(null));
    // THEN
    assertThat(noName).hasMessage("CacheState: name is null");
    assertThat(noInformer).hasMessage("CacheState.of: informer is null");
  }
}
