package dev.ctk.fake.internal.inprocess;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpHeaders;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The status line and headers of an in-process answer, with its body: a {@link CompleteBody}, or the
 * {@link StreamingWatchBody} of an HTTP-streaming watch.
 */
public final class InProcessResponse extends StandardHttpHeaders implements HttpResponse<AsyncBody> {

  private final HttpRequest request;
  private final int code;
  private final AsyncBody body;

  InProcessResponse(HttpRequest request, int code, Map<String, List<String>> headers, AsyncBody body) {
    super(headers);
    this.request = request;
    this.code = code;
    this.body = body;
  }

  /**
   * A complete answer: its body goes to fabric8's consumer in one buffer when fabric8 asks for it.
   *
   * @param request the request answered
   * @param code the HTTP status
   * @param headers the answer's headers
   * @param body the body bytes, empty for none
   * @param consumer fabric8's consumer of the body
   * @return the answer
   */
  public static HttpResponse<AsyncBody> complete(HttpRequest request, int code, Map<String, List<String>> headers,
      byte[] body, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    return new InProcessResponse(request, code, headers, new CompleteBody(body, consumer));
  }

  @Override
  public int code() {
    return code;
  }

  @Override
  public AsyncBody body() {
    return body;
  }

  @Override
  public HttpRequest request() {
    return request;
  }

  @Override
  public Optional<HttpResponse<?>> previousResponse() {
    return Optional.empty();
  }
}
