package io.slotkeeper.api;

import java.io.IOException;
import java.io.Writer;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's own error report, for what it rejects before the application sees it (a
 * request header larger than {@code server.max-http-request-header-size}): a problem
 * instead of Tomcat's HTML page.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

	@Override
	protected void report(Request request, Response response, Throwable throwable) {
		int status = response.getStatus();
		if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
			return;
		}
		try {
			response.setContentType(Problems.MEDIA_TYPE);
			response.setCharacterEncoding("UTF-8");
			Writer writer = response.getReporter();
			if (writer != null) {
				writer.write(Problems.forStatus(status));
				response.finishResponse();
			}
		}
		catch (IOException | IllegalStateException ex) {
			// The client is gone or the response was taken: nothing more to say.
		}
	}

}
