// The first header blocks of the HPACK benchmarks as hpack.js encodes them on a new connection
// (Huffman-coded, fresh table), kept as bytes so browsers, where hpack.js cannot run, decode the
// very same input. tests/bench/hpack-blocks.test.ts checks they still equal hpack.js's output.
const bytes = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

export const FIRST_BLOCKS = {
  'browser request': bytes(
    'gkGM8ePC5fI6a6CrkPT/h0SPYkORDExUpNVMshI7Elk/QIdBSLEnWtH/o/5vT2HpNbT/P33g/kImv5+lP50nStCv' +
      'dsHVJ/P33g/l9/+fQItBSLEnWtGtSeM1BYL/AUCNQUixJ1rRrV0DTKeyn4f+c5qrfP8/QJK2uawchVjVIKS2wq1h' +
      'e1pUJR+BD3rL0H9mooGw2uBT+vwIftTOaq3yp5ecica/tSGuugvIseYyWG2XV2XFP6zY9+jP9KUG6lUxFJ1P/al6' +
      'ew9JWAiaXApuHKOwzDbLq7LnU8BJfKWJ000fQ666DEGkx6mPM6aaP9+aaPodddBiDSY9THmmj77QAXf+jUjmKwPu' +
      'aX6NSOYrHgsdf18sfP32gAu9QIpBSLSlSSdZBkl/g6j1F0CKQUi0pUknWpPIX4aofc0w0l9AikFItKVJJ1rUFs+C' +
      '/wNAikFItKVJJ1pCoT+GkOS2ktSfUJKb2av6UkLLQNJfpSOz6U9oTJ9Riy1LcN30Wr77QAXf',
  ),
  '50 fields': bytes(
    'gkGLHWZcvkdNdBVyHp+HRIxjuFiwqD22EKhhoX9AjfKxLUJPStOUchbFgA+H7jotKsBYf0CN8rEtQk9K05RyFsWA' +
      'H4juOi0qwVhx/0CN8rEtQk9K05RyFsWAL4juOi0qwlhxk0CN8rEtQk9K05RyFsWAz4nuOi0qzKw4ySdAjfKxLUJP' +
      'StOUchbFgNeK7jotKs0sOMkhf0CN8rEtQk9K05RyFsWA34ruOi0qzaw4ySFlQI3ysS1CT0rTlHIWxYDnh+46LSrO' +
      'LD9AjfKxLUJPStOUchbFgO+I7jotKs6sOP9AjfKxLUJPStOUchbFgPeI7jotKs8sOMlAjfKxLUJPStOUchbFgP+J' +
      '7jotKs+sOMknQI3ysS1CT0rTlHIWxYIPiu46LSrBAsOMkhdAjfKxLUJPStOUchbFgh+L7jotKsEKw4ySFl9AjfKx' +
      'LUJPStOUchbFgi+H7jotKsESw0CN8rEtQk9K05RyFsWCz4juOi0qwWVhx0CN8rEtQk9K05RyFsWC14nuOi0qwWlh' +
      'xk9AjfKxLUJPStOUchbFgt+K7jotKsFtYcZJP0CN8rEtQk9K05RyFsWC54ruOi0qwXFhxkkLQI3ysS1CT0rTlHIW' +
      'xYLvi+46LSrBdWHGSQsvQI3ysS1CT0rTlHIWxYL3iO46LSrBeWH/QI3ysS1CT0rTlHIWxYL/iO46LSrBfWHHQI3y' +
      'sS1CT0rTlHIWxYQPie46LSrCAsOMn0CN8rEtQk9K05RyFsWEH4ruOi0qwgrDjJJ/QI3ysS1CT0rTlHIWxYQviu46' +
      'LSrCEsOMkhdAjfKxLUJPStOUchbFhM+L7jotKsJlYcZJCy9AjfKxLUJPStOUchbFhNeI7jotKsJpYf9AjfKxLUJP' +
      'StOUchbFhN+I7jotKsJtYcdAjfKxLUJPStOUchbFhOeJ7jotKsJxYcZPQI3ysS1CT0rTlHIWxYTviu46LSrCdWHG' +
      'ST9AjfKxLUJPStOUchbFhPeK7jotKsJ5YcZJC0CN8rEtQk9K05RyFsWE/4vuOi0qwn1hxkkLL0CN8rEtQk9K05Ry' +
      'FsWZB4juOi0qzIFh/0CN8rEtQk9K05RyFsWZD4juOi0qzIVhx0CN8rEtQk9K05RyFsWZF4nuOi0qzIlhxk9AjfKx' +
      'LUJPStOUchbFmWeK7jotKsyysOMkn0CN8rEtQk9K05RyFsWZa4ruOi0qzLSw4ySFQI3ysS1CT0rTlHIWxZlvi+46' +
      'LSrMtrDjJIWXQI3ysS1CT0rTlHIWxZlziO46LSrMuLD/QI3ysS1CT0rTlHIWxZl3iO46LSrMurDjQI3ysS1CT0rT' +
      'lHIWxZl7ie46LSrMvLDjJ0CN8rEtQk9K05RyFsWZf4ruOi0qzL6w4ySfQI3ysS1CT0rTlHIWxZoHiu46LSrNAWHG' +
      'SQtAjfKxLUJPStOUchbFmg+L7jotKs0FYcZJCy9AjfKxLUJPStOUchbFmheI7jotKs0JYf9AjfKxLUJPStOUchbF' +
      'mmeI7jotKs0ysONAjfKxLUJPStOUchbFmmuJ7jotKs00sOMnQI3ysS1CT0rTlHIWxZpviu46LSrNNrDjJJ8=',
  ),
  response: bytes(
    'iF+SSXylidNNH2oScdiCpgtTKs9/XIQLTzovYZbdbV9KCEppP3UEATigRXAAuAApi0b/dofwawqKylk/WI6u2Ogx' +
      'PpSkflYcxYGQA2KM/luVkawSPxiK7J/Pe4sZCFrSsWoh5DVTf3iZpH5WHMWBxkDogAB9qGqJRbIXdbHfPSM1SA==',
  ),
};
